/* The TMA primitive of cl/tma.h against this file's own reading of the layout it must produce.
 *
 * A 100 x 200 matrix of 16-bit values (208 between rows, every value distinct and nonzero)
 * is read as boxes of 32 rows by one swizzle row (16, 32 or 64 values for the 32-, 64- and
 * 128-byte swizzles, and 64 values unswizzled), at corners inside the matrix and across its
 * right and bottom edges.  A kernel copies each box into 1024-byte aligned local memory (first
 * filled with a marker value) with one cp.async.bulk.tensor on an mbarrier and writes the
 * local bytes out as they lie; the host checks every element: inside the matrix the value
 * of (y + r, x + c) must sit at row r, 16-byte chunk (c / 8) XOR (bits 7.. of the row's
 * byte address), outside it must be zero.  A planted expectation (the unswizzled place under
 * a swizzled map) must fail.
 *
 * The map's address is put in two ways: encoded on the host with the buffer's address read
 * back from the device, and encoded with a placeholder that a one-work-item kernel replaces
 * on the device as step 10's producer does at its start (TMA_MAPS_PUBLISH): the map copied
 * into local memory, its address replaced there (tensormap.replace on shared::cta), the map
 * stored back and released to the copy engine.
 *
 * Only NVIDIA compute capability 9.x with libcuda has the hardware; anywhere else this test
 * says so and exits 77 (skipped), never passed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "program.h"
#include "tensor_map.h"

static int failures, checks;

#define ROWS 100
#define COLS 200
#define LD 208
#define BOX_ROWS 32

static const char kernel_text[] =
    "__kernel void address_of(__global const uchar *p, __global ulong *out)\n"
    "{\n"
    "    out[0] = (ulong)p;\n"
    "}\n"
    "__kernel void map_set(__global ulong2 *map, __global const uchar *base, const int off)\n"
    "{\n"
    "    __local ulong2 stage[8] __attribute__((aligned(128)));\n"
    "    for (int i = 0; i < 8; ++i)\n"
    "        stage[i] = map[i];\n"
    "    TMA_MAP_SET_ADDRESS(TMA_LOCAL_ADDR(stage), (ulong)(base + off));\n"
    "    for (int i = 0; i < 8; ++i)\n"
    "        map[i] = stage[i];\n"
    "    TMA_MAP_RELEASE();\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(128, 1, 1)))\n"
    "void tma_box(__global const uchar *map, const int x, const int y, const int acquire,\n"
    "             __global ushort *out)\n"
    "{\n"
    "    __local ushort box[32 * 64] __attribute__((aligned(1024)));\n"
    "    __local ulong bar_word;\n"
    "    const uint bar = TMA_LOCAL_ADDR(&bar_word);\n"
    "    const int lid = get_local_id(0);\n"
    "    for (int i = lid; i < 32 * 64; i += 128)\n"
    "        box[i] = 0xfbad;\n"
    "    if (lid == 0) {\n"
    "        TMA_BAR_INIT(bar, 1);\n"
    "        TMA_BAR_INIT_FENCE();\n"
    "    }\n"
    "    TMA_PROXY_FENCE();\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid == 0) {\n"
    "        if (acquire)\n"
    "            TMA_MAP_ACQUIRE(map);\n"
    "        TMA_EXPECT(bar, BOX_BYTES);\n"
    "        TMA_LOAD_2D(TMA_LOCAL_ADDR(box), map, x, y, bar);\n"
    "    }\n"
    "    TMA_WAIT(bar, 0);\n"
    "    for (int i = lid; i < 32 * 64; i += 128)\n"
    "        out[i] = box[i];\n"
    "}\n";

static unsigned short value_at(int r, int c) { return (unsigned short)(r * 256 + c + 1); }

/* Where element (r, c) of a box with rows of w bytes lands under a swizzle of swz bytes. */
static size_t landing(int r, int c, int w, int swz, int planted)
{
    const size_t logical = (size_t)r * (size_t)w + (size_t)c * 2;
    if (swz == 0 || planted)
        return logical / 2;
    const size_t chunk_bits = (size_t)(swz / 16 - 1);
    return (logical ^ (((logical >> 7) & chunk_bits) << 4)) / 2;
}

/* Returns the number of mismatching elements. */
static int check_box(const unsigned short *got, int x, int y, int box_cols, int swz,
                     int planted)
{
    int bad = 0;
    for (int r = 0; r < BOX_ROWS; r++)
        for (int c = 0; c < box_cols; c++) {
            const int gr = y + r, gc = x + c;
            const unsigned short want =
                gr >= 0 && gr < ROWS && gc >= 0 && gc < COLS ? value_at(gr, gc) : 0;
            const unsigned short have = got[landing(r, c, box_cols * 2, swz, planted)];
            if (have != want && bad++ < 3 && !planted)
                fprintf(stderr, "  swizzle %d box (%d, %d): element (%d, %d) is %u, want %u\n",
                        swz, x, y, r, c, have, want);
        }
    return bad;
}

typedef struct ctx_t {
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
    cl_mem matrix, map, out;
    unsigned long long address;
} ctx_t;

/* One box through one map.  Host-encoded maps go into the test's map buffer; a map to be
 * completed on the device goes into a new buffer that map_set fills in before the copy. */
static int run_box(ctx_t *c, const tensor_map *map, int set_on_device, int x, int y,
                   unsigned short *got, errbuf *e)
{
    cl_int st;
    cl_kernel set = NULL, k = NULL;
    cl_mem m = NULL;
    if (set_on_device) {
        m = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof *map,
                           (void *)map, &st);
        CL_TRY(e, st);
        set = clCreateKernel(c->prog, "map_set", &st);
        CL_TRY(e, st);
        const int off = 0;
        CL_TRY(e, clSetKernelArg(set, 0, sizeof(cl_mem), &m));
        CL_TRY(e, clSetKernelArg(set, 1, sizeof(cl_mem), &c->matrix));
        CL_TRY(e, clSetKernelArg(set, 2, sizeof(int), &off));
        const size_t one = 1;
        CL_TRY(e, clEnqueueNDRangeKernel(c->q, set, 1, NULL, &one, &one, 0, NULL, NULL));
    } else {
        m = c->map;
        CL_TRY(e, clRetainMemObject(m));
        CL_TRY(e, clEnqueueWriteBuffer(c->q, m, CL_TRUE, 0, sizeof *map, map, 0, NULL, NULL));
    }
    k = clCreateKernel(c->prog, "tma_box", &st);
    CL_TRY(e, st);
    CL_TRY(e, clSetKernelArg(k, 0, sizeof(cl_mem), &m));
    CL_TRY(e, clSetKernelArg(k, 1, sizeof(int), &x));
    CL_TRY(e, clSetKernelArg(k, 2, sizeof(int), &y));
    CL_TRY(e, clSetKernelArg(k, 3, sizeof(int), &set_on_device));
    CL_TRY(e, clSetKernelArg(k, 4, sizeof(cl_mem), &c->out));
    const size_t wg = 128;
    CL_TRY(e, clEnqueueNDRangeKernel(c->q, k, 1, NULL, &wg, &wg, 0, NULL, NULL));
    CL_TRY(e, clEnqueueReadBuffer(c->q, c->out, CL_TRUE, 0, 32 * 64 * 2, got, 0, NULL, NULL));
    if (set)
        clReleaseKernel(set);
    clReleaseKernel(k);
    clReleaseMemObject(m);
    return 0;
fail:
    if (set)
        clReleaseKernel(set);
    if (k)
        clReleaseKernel(k);
    if (m)
        clReleaseMemObject(m);
    return -1;
}

int main(void)
{
    const char *spec = getenv("CLGEMM_TEST_DEVICE");
    device_list list;
    errbuf e = { "" };
    size_t picked[64];
    if (devices_enumerate(&list, &e) != 0 || list.count > 64) {
        fprintf(stderr, "test_tma: %s\n", e.msg);
        return 1;
    }
    if (devices_select(&list, spec && *spec ? spec : "", picked, &e) < 1) {
        fprintf(stderr, "test_tma: %s\n", e.msg);
        devices_free(&list);
        return 1;
    }
    const device_info *dev = &list.items[picked[0]];
    if (dev->nv_cc_major != 9 || !tensor_map_available(&e)) {
        printf("test_tma: TMA unsupported on this device (%s): %s\n", dev->name,
               dev->nv_cc_major != 9 ? "not NVIDIA compute capability 9.x" : e.msg);
        devices_free(&list);
        return 77;
    }
    printf("device: %s, real cp.async.bulk.tensor through the sm_90a post-pass\n", dev->name);

    ctx_t c = { 0 };
    cl_int st;
    c.ctx = clCreateContext(NULL, 1, &dev->id, NULL, NULL, &st);
    c.q = c.ctx ? clCreateCommandQueue(c.ctx, dev->id, 0, &st) : NULL;
    char *header = c.q ? kernel_source_load("mma/tma.h", &e) : NULL;
    if (!header) {
        fprintf(stderr, "test_tma: %s%s\n", e.msg, c.q ? "" : cl_error_name(st));
        return 1;
    }
    static unsigned short host[ROWS * LD];
    for (int r = 0; r < ROWS; r++)
        for (int col = 0; col < LD; col++)
            host[r * LD + col] = col < COLS ? value_at(r, col) : 0x7777;
    c.matrix = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof host, host,
                              &st);
    c.map = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, sizeof(tensor_map), NULL, &st);
    c.out = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, 32 * 64 * 2, NULL, &st);

    static const int swizzles[] = { 32, 64, 128, 0 };
    /* Box corners: inside, inside, across the bottom edge, across both edges.  A box's first
     * column must lie on a 16-byte boundary of its row (our kernels start boxes at multiples
     * of BK or 64 values): on the H100 a box at column 1, 3, 4 (8 bytes in) or 190 failed the
     * kernel (CL_OUT_OF_RESOURCES), one at column 8 (16 bytes) copied right (probe104 in
     * bench/results/2026-11-26_nvidia-h100/probes), so the corner case is (192, 90). */
    static const int corners[][2] = { { 0, 0 }, { 64, 32 }, { 160, 80 }, { 192, 90 } };
    for (size_t si = 0; si < 4; si++) {
        const int swz = swizzles[si], box_cols = swz ? swz / 2 : 64;
        char *src = malloc(strlen(header) + sizeof kernel_text + 128);
        sprintf(src, "%s\n#define BOX_BYTES %d\n%s", header, BOX_ROWS * box_cols * 2,
                kernel_text);
        char *log = NULL;
        bool cached = false, unsupported = false;
        c.prog = program_build(c.ctx, dev, src, PROGRAM_BASE_OPTIONS " -cl-std=CL1.2 "
                               PROGRAM_SM90A_OPTION, &log, &cached, &unsupported, &e);
        free(src);
        if (!c.prog) {
            fprintf(stderr, "FAIL build: %s\n%s\n", e.msg, log ? log : "");
            free(log);
            failures++;
            break;
        }
        free(log);
        /* The buffer's address, read back, for the host-encoded map. */
        cl_kernel ak = clCreateKernel(c.prog, "address_of", &st);
        cl_mem addr = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, 8, NULL, &st);
        clSetKernelArg(ak, 0, sizeof(cl_mem), &c.matrix);
        clSetKernelArg(ak, 1, sizeof(cl_mem), &addr);
        const size_t one = 1;
        clEnqueueNDRangeKernel(c.q, ak, 1, NULL, &one, &one, 0, NULL, NULL);
        clEnqueueReadBuffer(c.q, addr, CL_TRUE, 0, 8, &c.address, 0, NULL, NULL);
        clReleaseKernel(ak);
        clReleaseMemObject(addr);

        const tensor_map_shape shape = { 2,   ROWS, COLS, LD, BOX_ROWS, (uint32_t)box_cols,
                                         swz, 0,    0 };
        /* CLGEMM_TMA_TEST_ONLY=host|device runs one way only (to tell failures apart). */
        const char *only = getenv("CLGEMM_TMA_TEST_ONLY");
        for (int how = 0; how < 2; how++) {
            if (only && *only && strcmp(only, how ? "device" : "host") != 0)
                continue;
            tensor_map map;
            if (tensor_map_encode(&map, how ? TENSOR_MAP_PLACEHOLDER_ADDRESS : c.address, &shape,
                                  &e) != 0) {
                fprintf(stderr, "FAIL encode: %s\n", e.msg);
                failures++;
                continue;
            }
            for (size_t ci = 0; ci < 4; ci++) {
                static unsigned short got[32 * 64];
                memset(got, 0, sizeof got);
                checks++;
                if (run_box(&c, &map, how, corners[ci][0], corners[ci][1], got, &e) != 0) {
                    fprintf(stderr, "FAIL run (swizzle %d, %s): %s\n", swz,
                            how ? "device-set address" : "host address", e.msg);
                    failures++;
                    continue;
                }
                const int bad = check_box(got, corners[ci][0], corners[ci][1], box_cols, swz, 0);
                if (!bad)
                    printf("ok   swizzle %3d, %s, box at (%d, %d)\n", swz,
                           how ? "device-set address" : "host address", corners[ci][0],
                           corners[ci][1]);
                if (bad) {
                    failures++;
                    fprintf(stderr, "FAIL swizzle %d, %s, box at (%d, %d): %d elements wrong\n",
                            swz, how ? "device-set address" : "host address", corners[ci][0],
                            corners[ci][1], bad);
                }
                if (swz != 0 && ci == 1) { /* the planted expectation must fail */
                    checks++;
                    if (check_box(got, corners[ci][0], corners[ci][1], box_cols, swz, 1) == 0) {
                        failures++;
                        fprintf(stderr, "FAIL planted: unswizzled expectation passed\n");
                    }
                }
            }
        }
        clReleaseProgram(c.prog);
    }
    printf("address read back: 0x%llx\n", c.address);
    free(header);
    clReleaseMemObject(c.matrix);
    clReleaseMemObject(c.map);
    clReleaseMemObject(c.out);
    clReleaseCommandQueue(c.q);
    clReleaseContext(c.ctx);
    devices_free(&list);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
