#include "tensor_map.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

/* The few CUDA driver API types this needs, as the driver's ABI defines them (values from
 * the CUDA driver API reference; the enums are plain ints there). */
typedef int cu_result;
typedef cu_result (*cu_init_fn)(unsigned flags);
typedef cu_result (*cu_encode_tiled_fn)(void *map, int dtype, uint32_t rank, void *address,
                                        const uint64_t *dims, const uint64_t *strides,
                                        const uint32_t *box, const uint32_t *elem_strides,
                                        int interleave, int swizzle, int l2_promotion,
                                        int oob_fill);
typedef cu_result (*cu_error_string_fn)(cu_result, const char **);
typedef cu_result (*cu_device_get_fn)(int *device, int ordinal);
typedef cu_result (*cu_primary_ctx_retain_fn)(void **ctx, int device);
typedef cu_result (*cu_ctx_set_current_fn)(void *ctx);

enum {
    CU_MAP_UINT16 = 1, /* CU_TENSOR_MAP_DATA_TYPE_UINT16: the bits are copied, never read */
    CU_MAP_UINT32 = 2,
    CU_MAP_INTERLEAVE_NONE = 0,
    CU_MAP_L2_PROMOTION_256B = 3,
    CU_MAP_OOB_FILL_ZERO = 0,
};

static struct {
    pthread_once_t once;
    void *lib;
    cu_encode_tiled_fn encode;
    cu_error_string_fn error_string;
    cu_ctx_set_current_fn set_current;
    void *context;
    char why[256];
} cuda = { PTHREAD_ONCE_INIT, NULL, NULL, NULL, NULL, NULL, "" };

static void load_cuda(void)
{
    cuda.lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!cuda.lib) {
        snprintf(cuda.why, sizeof cuda.why, "TMA needs libcuda.so.1 (NVIDIA's driver): %s",
                 dlerror());
        return;
    }
    cu_init_fn init = (cu_init_fn)dlsym(cuda.lib, "cuInit");
    cuda.encode = (cu_encode_tiled_fn)dlsym(cuda.lib, "cuTensorMapEncodeTiled");
    cuda.error_string = (cu_error_string_fn)dlsym(cuda.lib, "cuGetErrorString");
    cu_device_get_fn device_get = (cu_device_get_fn)dlsym(cuda.lib, "cuDeviceGet");
    cu_primary_ctx_retain_fn retain =
        (cu_primary_ctx_retain_fn)dlsym(cuda.lib, "cuDevicePrimaryCtxRetain");
    cuda.set_current = (cu_ctx_set_current_fn)dlsym(cuda.lib, "cuCtxSetCurrent");
    if (!init || !cuda.encode || !device_get || !retain || !cuda.set_current) {
        snprintf(cuda.why, sizeof cuda.why,
                 "libcuda.so.1 has no cuTensorMapEncodeTiled (driver older than CUDA 12)");
        cuda.encode = NULL;
        return;
    }
    /* The encoder only encodes (the map is plain bytes, valid for any context on the
     * device), but it refuses to run without a current CUDA context (measured on driver
     * 580: "invalid device context").  The device's primary context is the cheapest one to
     * hold; it lives beside the OpenCL driver's own. */
    int device = 0;
    cu_result r = init(0);
    if (r == 0)
        r = device_get(&device, 0);
    if (r == 0)
        r = retain(&cuda.context, device);
    if (r != 0) {
        snprintf(cuda.why, sizeof cuda.why, "CUDA driver set-up for TMA failed (error %d)", r);
        cuda.encode = NULL;
    }
}

int tensor_map_available(errbuf *e)
{
    pthread_once(&cuda.once, load_cuda);
    if (!cuda.encode) {
        err_set(e, "%s", cuda.why);
        return 0;
    }
    return 1;
}

int tensor_map_check_shape(const tensor_map_shape *s, errbuf *e)
{
    const uint64_t row_bytes = s->ld * (uint64_t)s->elem_bytes;
    const uint64_t box_bytes = (uint64_t)s->box_cols * (uint64_t)s->elem_bytes;
    if (s->elem_bytes != 2 && s->elem_bytes != 4)
        err_set(e, "TMA: elements of %d bytes (2 or 4 supported)", s->elem_bytes);
    else if (s->rows < 1 || s->cols < 1 || s->ld < s->cols)
        err_set(e, "TMA: a %llu x %llu tensor with %llu elements between rows",
                (unsigned long long)s->rows, (unsigned long long)s->cols,
                (unsigned long long)s->ld);
    else if (row_bytes % 16 != 0 || row_bytes >= (1ull << 40))
        err_set(e, "TMA: rows %llu bytes apart (a multiple of 16 below 2^40 is needed)",
                (unsigned long long)row_bytes);
    else if (s->rows > (1ull << 32) || s->cols > (1ull << 32))
        err_set(e, "TMA: a dimension above 2^32");
    else if (s->box_rows < 1 || s->box_rows > 256 || s->box_cols < 1 || s->box_cols > 256 ||
             box_bytes % 16 != 0)
        err_set(e, "TMA: a %u x %u box (1..256 each, rows a multiple of 16 bytes)",
                s->box_rows, s->box_cols);
    else if (s->swizzle_bytes != 0 && s->swizzle_bytes != 32 && s->swizzle_bytes != 64 &&
             s->swizzle_bytes != 128)
        err_set(e, "TMA: swizzle of %d bytes (0, 32, 64 or 128)", s->swizzle_bytes);
    else if (s->depth > 0 && (s->depth > (1ull << 32) || (s->stride * s->elem_bytes) % 16 != 0 ||
                              s->stride * s->elem_bytes >= (1ull << 40)))
        err_set(e, "TMA: a batch of %llu matrices %llu elements apart (strides a multiple of 16 "
                "bytes below 2^40 are needed)", (unsigned long long)s->depth,
                (unsigned long long)s->stride);
    else if (s->swizzle_bytes != 0 && box_bytes > (uint64_t)s->swizzle_bytes)
        err_set(e, "TMA: box rows of %llu bytes wider than the %d-byte swizzle",
                (unsigned long long)box_bytes, s->swizzle_bytes);
    else
        return 0;
    return -1;
}

int tensor_map_encode(tensor_map *out, uint64_t address, const tensor_map_shape *s, errbuf *e)
{
    if (tensor_map_check_shape(s, e) != 0 || !tensor_map_available(e))
        return -1;
    if (address % 16 != 0) {
        err_set(e, "TMA: tensor address not 16-byte aligned");
        return -1;
    }
    /* Dimension 0 is the contiguous one: columns, then rows, then a batch's problems. */
    const uint64_t dims[3] = { s->cols, s->rows, s->depth };
    const uint64_t strides[2] = { s->ld * (uint64_t)s->elem_bytes,
                                  s->stride * (uint64_t)s->elem_bytes };
    const uint32_t box[3] = { s->box_cols, s->box_rows, 1 };
    const uint32_t elem_strides[3] = { 1, 1, 1 };
    const uint32_t rank = s->depth > 0 ? 3 : 2;
    const int swizzle = s->swizzle_bytes == 0 ? 0 : s->swizzle_bytes == 32 ? 1
                      : s->swizzle_bytes == 64 ? 2 : 3;
    cu_result r = cuda.set_current(cuda.context); /* per thread: make sure of it here */
    if (r == 0)
        r = cuda.encode(out->words, s->elem_bytes == 2 ? CU_MAP_UINT16 : CU_MAP_UINT32,
                              rank, (void *)(uintptr_t)address, dims, strides, box, elem_strides,
                              CU_MAP_INTERLEAVE_NONE, swizzle, CU_MAP_L2_PROMOTION_256B,
                              CU_MAP_OOB_FILL_ZERO);
    if (r != 0) {
        const char *name = NULL;
        if (cuda.error_string)
            cuda.error_string(r, &name);
        err_set(e, "cuTensorMapEncodeTiled refused a %llu x %llu map (box %u x %u): %s",
                (unsigned long long)s->rows, (unsigned long long)s->cols, s->box_rows,
                s->box_cols, name ? name : "unknown CUDA error");
        return -1;
    }
    return 0;
}
