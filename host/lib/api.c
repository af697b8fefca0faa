/* The public API (clgemm.h), first half: errors, devices, contexts, the algorithm list.
 * Plans and GEMMs are in api_gemm.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "cache.h"
#include "clgemm_config.h"
#include "dtype.h"
#include "registry.h"

static _Thread_local char last_error[1024];

clgemm_status api_fail(const char *fn, clgemm_status st, const char *fmt, ...)
{
    int n = snprintf(last_error, sizeof last_error, "%s: ", fn);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
    va_end(ap);
    return st;
}

clgemm_status api_ok(void)
{
    last_error[0] = '\0';
    return CLGEMM_SUCCESS;
}

const char *clgemm_last_error(void) { return last_error; }
const char *clgemm_version(void) { return CLGEMM_VERSION; }

const char *clgemm_status_string(clgemm_status status)
{
    switch (status) {
    case CLGEMM_SUCCESS: return "success";
    case CLGEMM_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case CLGEMM_ERROR_NO_DEVICE: return "no matching OpenCL device";
    case CLGEMM_ERROR_UNKNOWN_ALGORITHM: return "unknown algorithm";
    case CLGEMM_ERROR_UNSUPPORTED: return "unsupported on this device or for these operands";
    case CLGEMM_ERROR_BUILD_FAILED: return "kernel build failed";
    case CLGEMM_ERROR_OPENCL: return "OpenCL call failed";
    case CLGEMM_ERROR_OUT_OF_HOST_MEMORY: return "out of host memory";
    }
    return "unknown status";
}

/* ---- devices: enumerated once per process ----------------------------------------
 * Each public function passes its own name down, so that a message names the function the
 * caller called (clgemm_open(NULL, NULL) says clgemm_open, not an inner call). */

static pthread_once_t devices_once = PTHREAD_ONCE_INIT;
static device_list devices;
static errbuf devices_error;
static int devices_rc;

static void enumerate_once(void) { devices_rc = devices_enumerate(&devices, &devices_error); }

static clgemm_status devices_get(const char *fn)
{
    pthread_once(&devices_once, enumerate_once);
    if (devices_rc != 0)
        return api_fail(fn, CLGEMM_ERROR_NO_DEVICE, "%s", devices_error.msg);
    return CLGEMM_SUCCESS;
}

clgemm_status clgemm_devices(const clgemm_device_desc **list, size_t *count)
{
    if (!list || !count)
        return api_fail(__func__, CLGEMM_ERROR_INVALID_ARGUMENT, "NULL argument");
    clgemm_status st = devices_get(__func__);
    if (st != CLGEMM_SUCCESS)
        return st;
    *list = devices.items;
    *count = devices.count;
    return api_ok();
}

static clgemm_status select_devices(const char *fn, const char *spec, size_t *indices,
                                    size_t *count)
{
    clgemm_status st = devices_get(fn);
    if (st != CLGEMM_SUCCESS)
        return st;
    errbuf e = { "" };
    int picked = devices_select(&devices, spec, indices, &e);
    if (picked < 0)
        return api_fail(fn, CLGEMM_ERROR_NO_DEVICE, "%s", e.msg);
    *count = (size_t)picked;
    return api_ok();
}

clgemm_status clgemm_select_devices(const char *spec, size_t *indices, size_t *count)
{
    if (!indices || !count)
        return api_fail(__func__, CLGEMM_ERROR_INVALID_ARGUMENT, "NULL argument");
    return select_devices(__func__, spec, indices, count);
}

/* ---- algorithms ------------------------------------------------------------------- */

size_t clgemm_algorithm_count(void)
{
    size_t n;
    algos_all(&n);
    return n;
}

const clgemm_algorithm_desc *clgemm_algorithm(size_t index)
{
    size_t n;
    const algo_def *all = algos_all(&n);
    return index < n ? &all[index].desc : NULL;
}

const clgemm_algorithm_desc *clgemm_find_algorithm(const char *name)
{
    const algo_def *a = name ? algo_find(name) : NULL;
    return a ? &a->desc : NULL;
}

/* ---- contexts --------------------------------------------------------------------- */

static clgemm_status new_context(const char *fn, const device_info *dev, cl_context c,
                                 cl_command_queue q, clgemm_context **out)
{
    clgemm_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return api_fail(fn, CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    ctx->dev = dev;
    ctx->ctx = c;
    ctx->queue = q;
    pthread_mutex_init(&ctx->build, NULL);
    layout_init(&ctx->layout);
    *out = ctx;
    return api_ok();
}

static clgemm_status open_index(const char *fn, size_t index, clgemm_context **out)
{
    clgemm_status st = devices_get(fn);
    if (st != CLGEMM_SUCCESS)
        return st;
    if (index >= devices.count)
        return api_fail(fn, CLGEMM_ERROR_NO_DEVICE, "no device %zu: there are %zu", index,
                        devices.count);
    const device_info *dev = &devices.items[index];
    cl_int err;
    cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform,
                                      0 };
    cl_context c = clCreateContext(props, 1, &dev->id, NULL, NULL, &err);
    if (!c)
        return api_fail(fn, CLGEMM_ERROR_OPENCL, "clCreateContext(%s) failed: %s", dev->name,
                        cl_error_name(err));
    cl_command_queue q = clCreateCommandQueue(c, dev->id, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!q) {
        clReleaseContext(c);
        return api_fail(fn, CLGEMM_ERROR_OPENCL, "clCreateCommandQueue(%s) failed: %s",
                        dev->name, cl_error_name(err));
    }
    st = new_context(fn, dev, c, q, out);
    if (st != CLGEMM_SUCCESS) {
        clReleaseCommandQueue(q);
        clReleaseContext(c);
    }
    return st;
}

clgemm_status clgemm_open_device(size_t index, clgemm_context **out)
{
    if (!out)
        return api_fail(__func__, CLGEMM_ERROR_INVALID_ARGUMENT, "NULL context pointer");
    return open_index(__func__, index, out);
}

clgemm_status clgemm_open(const char *device_spec, clgemm_context **out)
{
    if (!out)
        return api_fail(__func__, CLGEMM_ERROR_INVALID_ARGUMENT, "NULL context pointer");
    clgemm_status st = devices_get(__func__);
    if (st != CLGEMM_SUCCESS)
        return st;
    size_t count, *picked = calloc(devices.count ? devices.count : 1, sizeof *picked);
    if (!picked)
        return api_fail(__func__, CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    st = select_devices(__func__, device_spec, picked, &count);
    size_t first = picked[0];
    free(picked);
    if (st != CLGEMM_SUCCESS)
        return st;
    return open_index(__func__, first, out);
}

clgemm_status clgemm_wrap(cl_command_queue queue, clgemm_context **out)
{
    if (!queue || !out)
        return api_fail(__func__, CLGEMM_ERROR_INVALID_ARGUMENT, "NULL argument");
    cl_context c;
    cl_device_id id;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof c, &c, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof id, &id, NULL);
    if (err != CL_SUCCESS)
        return api_fail(__func__, CLGEMM_ERROR_INVALID_ARGUMENT,
                        "clGetCommandQueueInfo failed: %s", cl_error_name(err));
    clgemm_status st = devices_get(__func__);
    if (st != CLGEMM_SUCCESS)
        return st;
    for (size_t i = 0; i < devices.count; i++)
        if (devices.items[i].id == id) {
            st = new_context(__func__, &devices.items[i], c, queue, out);
            if (st == CLGEMM_SUCCESS) {
                clRetainContext(c);
                clRetainCommandQueue(queue);
            }
            return st;
        }
    return api_fail(__func__, CLGEMM_ERROR_NO_DEVICE, "the queue's device is not one of the "
                    "enumerated devices (sub-devices are not supported)");
}

void clgemm_close(clgemm_context *ctx)
{
    if (!ctx)
        return;
    api_plans_release(ctx);
    layout_release(&ctx->layout);
    pthread_mutex_destroy(&ctx->build);
    clReleaseCommandQueue(ctx->queue);
    clReleaseContext(ctx->ctx);
    free(ctx);
}

cl_context clgemm_cl_context(const clgemm_context *ctx) { return ctx ? ctx->ctx : NULL; }
cl_command_queue clgemm_cl_queue(const clgemm_context *ctx) { return ctx ? ctx->queue : NULL; }
const clgemm_device_desc *clgemm_device(const clgemm_context *ctx)
{
    return ctx ? ctx->dev : NULL;
}

const char *clgemm_cache_dir(void) { return cache_dir(); }


/* ---- 16-bit conversions ------------------------------------------------------------ */

const char *clgemm_dtype_name(clgemm_dtype dtype)
{
    switch (dtype) {
    case CLGEMM_F32: return "f32";
    case CLGEMM_F16: return "f16";
    case CLGEMM_BF16: return "bf16";
    }
    return NULL;
}

const char *clgemm_epilogue_name(clgemm_epilogue epilogue)
{
    static const char *const names[] = { "none", "bias", "relu", "bias_relu", "gelu",
                                         "bias_gelu" };
    return (unsigned)epilogue < sizeof names / sizeof names[0] ? names[epilogue] : NULL;
}

cl_ushort clgemm_float_to_16bit(float x, clgemm_dtype dtype)
{
    return dtype == CLGEMM_F16 ? f32_to_f16_bits(x) : f32_to_bf16_bits(x);
}

float clgemm_16bit_to_float(cl_ushort bits, clgemm_dtype dtype)
{
    return dtype == CLGEMM_F16 ? f16_bits_to_f32(bits) : bf16_bits_to_f32(bits);
}
