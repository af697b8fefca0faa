/* The fragment layouts of the matrix primitives, proven on their own: random 16x16x8 (TF32)
 * and 16x16x16 (f16, bf16) problems, one per warp, go through the primitive macro
 * (mma/mma_sync.h's MMA_M16N8K8_TF32 and MMA_M16N8K16_F16/BF16) from registers that a small
 * kernel fills by the PTX ISA's fragment tables, written out again here, independently of the
 * header; the host compares D with a double-precision reference.  A lane reading the wrong
 * element, a swapped register or half, or two warps sharing scratch gives errors of order
 * one; the bound is 2^-20 of sum |c| + |a*b| (exact products, only the sums may round).
 *
 * On a device without matrix units the primitives are their emulation
 * (-DCLGEMM_EMULATE_MMA=1); on NVIDIA sm_80+ the inline PTX itself runs, so the same test
 * checks the emulation against the documented layout on PoCL and the documented layout
 * against the hardware on the GPU.  A planted swap of two A registers in the test kernel must
 * fail, which shows the comparison can see a layout error.
 *
 * usage: test_fragments CL_DIR   (device from $CLGEMM_TEST_DEVICE, else "pocl") */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "test_device.h"

#define WARPS 2

static const char *kernel_source =
    "#ifndef PLANT_SWAP\n"
    "#define PLANT_SWAP 0\n"
    "#endif\n"
    /* m16n8k16: A 16x16, B 16x8, C and D 16x8, all row-major, one problem per warp. */
    "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
    "void frag16(__global const ushort *A, __global const ushort *B, __global const float *C,\n"
    "            __global float *D)\n"
    "{\n"
    "    const int tid = get_local_id(0);\n"
    "    MMA_WARP_SETUP(tid, 2);\n"
    "    const int w = tid / 32, g = (tid & 31) >> 2, t = tid & 3;\n"
    "    A += w * 256; B += w * 128; C += w * 128; D += w * 128;\n"
    "#define PAIR(lo, hi) ((uint)(lo) | (uint)(hi) << 16)\n"
    "    uint a0 = PAIR(A[g * 16 + 2 * t], A[g * 16 + 2 * t + 1]);\n"
    "    uint a1 = PAIR(A[(g + 8) * 16 + 2 * t], A[(g + 8) * 16 + 2 * t + 1]);\n"
    "    uint a2 = PAIR(A[g * 16 + 2 * t + 8], A[g * 16 + 2 * t + 9]);\n"
    "    uint a3 = PAIR(A[(g + 8) * 16 + 2 * t + 8], A[(g + 8) * 16 + 2 * t + 9]);\n"
    "    if (PLANT_SWAP) { const uint x = a1; a1 = a2; a2 = x; }\n"
    "    const uint b0 = PAIR(B[(2 * t) * 8 + g], B[(2 * t + 1) * 8 + g]);\n"
    "    const uint b1 = PAIR(B[(2 * t + 8) * 8 + g], B[(2 * t + 9) * 8 + g]);\n"
    "    float d0 = C[g * 8 + 2 * t], d1 = C[g * 8 + 2 * t + 1];\n"
    "    float d2 = C[(g + 8) * 8 + 2 * t], d3 = C[(g + 8) * 8 + 2 * t + 1];\n"
    "#if DTYPE == 2\n"
    "    MMA_M16N8K16_BF16(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1);\n"
    "#else\n"
    "    MMA_M16N8K16_F16(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1);\n"
    "#endif\n"
    "    D[g * 8 + 2 * t] = d0; D[g * 8 + 2 * t + 1] = d1;\n"
    "    D[(g + 8) * 8 + 2 * t] = d2; D[(g + 8) * 8 + 2 * t + 1] = d3;\n"
    "}\n"
    /* m16n8k8 TF32: A 16x8, B 8x8, C and D 16x8; inputs already tf32 values. */
    "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
    "void frag8(__global const float *A, __global const float *B, __global const float *C,\n"
    "           __global float *D)\n"
    "{\n"
    "    const int tid = get_local_id(0);\n"
    "    MMA_WARP_SETUP(tid, 2);\n"
    "    const int w = tid / 32, g = (tid & 31) >> 2, t = tid & 3;\n"
    "    A += w * 128; B += w * 64; C += w * 128; D += w * 128;\n"
    "    float a0 = A[g * 8 + t], a1 = A[(g + 8) * 8 + t];\n"
    "    float a2 = A[g * 8 + t + 4], a3 = A[(g + 8) * 8 + t + 4];\n"
    "    if (PLANT_SWAP) { const float x = a1; a1 = a2; a2 = x; }\n"
    "    const float b0 = B[t * 8 + g], b1 = B[(t + 4) * 8 + g];\n"
    "    float d0 = C[g * 8 + 2 * t], d1 = C[g * 8 + 2 * t + 1];\n"
    "    float d2 = C[(g + 8) * 8 + 2 * t], d3 = C[(g + 8) * 8 + 2 * t + 1];\n"
    "    MMA_M16N8K8_TF32(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1);\n"
    "    D[g * 8 + 2 * t] = d0; D[g * 8 + 2 * t + 1] = d1;\n"
    "    D[(g + 8) * 8 + 2 * t] = d2; D[(g + 8) * 8 + 2 * t + 1] = d3;\n"
    "}\n";

static int failures, checks;

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint32_t next_u32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static float uniform(void) { return (float)((next_u32() & 0xffffff) * 0x1.0p-23 - 1.0); }

/* A random finite value of the format with its biased exponent field in [lo, hi] (0 means
 * subnormal or zero), any sign and mantissa. */
static uint16_t random_bits(clgemm_dtype dtype, unsigned lo, unsigned hi)
{
    uint32_t r = next_u32();
    unsigned exp = lo + r % (hi - lo + 1);
    r = next_u32();
    if (dtype == CLGEMM_F16)
        return (uint16_t)((r & 0x8000u) | (exp << 10) | (r & 0x3ffu));
    return (uint16_t)((r & 0x8000u) | (exp << 7) | (r & 0x7fu));
}

static float tf32(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    u = (u + 0x1000u) & 0xffffe000u; /* finite inputs only here */
    memcpy(&x, &u, 4);
    return x;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* The primitives' header pasted in front of the kernels (its own include of mma/tf32.h is
 * found through -I). */
static char *full_source(const char *cl_dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/mma/mma_sync.h", cl_dir);
    char *mma = read_text(path);
    char *all = NULL;
    if (mma && (all = malloc(strlen(mma) + strlen(kernel_source) + 2)))
        sprintf(all, "%s\n%s", mma, kernel_source);
    free(mma);
    return all;
}

static cl_program build(cl_context ctx, cl_device_id dev, const char *src, const char *opts)
{
    cl_int st;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &st);
    if (!p)
        return NULL;
    st = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
    if (st != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
        char *log = malloc(n + 1);
        if (log && clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL) == CL_SUCCESS) {
            log[n] = '\0';
            fprintf(stderr, "build failed (%s):\n%s\n", opts, log);
        }
        free(log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* One launch of `kernel` (frag16 or frag8) on WARPS problems.  a, b are the bytes of the
 * operands as the kernel reads them; av, bv their values as doubles (row-major, per warp
 * am x kk and kk x 8); returns the worst error relative to sum |c| + |a*b|, or -1 when an
 * OpenCL call failed. */
static double run(cl_context ctx, cl_command_queue q, cl_program prog, const char *kernel,
                  const void *a, size_t abytes, const void *b, size_t bbytes, const double *av,
                  const double *bv, int kk)
{
    float c[WARPS * 128], d[WARPS * 128];
    for (int i = 0; i < WARPS * 128; i++)
        c[i] = uniform();
    cl_int st;
    double worst = -1.0;
    cl_kernel k = clCreateKernel(prog, kernel, &st);
    cl_mem bufs[4] = { NULL, NULL, NULL, NULL };
    if (!k)
        return -1.0;
    bufs[0] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, abytes, (void *)a, &st);
    bufs[1] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bbytes, (void *)b, &st);
    bufs[2] = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof c, c, &st);
    bufs[3] = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof d, NULL, &st);
    size_t global = 32 * WARPS;
    bool ok = bufs[0] && bufs[1] && bufs[2] && bufs[3];
    for (cl_uint i = 0; ok && i < 4; i++)
        ok = clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]) == CL_SUCCESS;
    ok = ok && clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &global, 0, NULL, NULL) == CL_SUCCESS &&
         clEnqueueReadBuffer(q, bufs[3], CL_TRUE, 0, sizeof d, d, 0, NULL, NULL) == CL_SUCCESS;
    if (ok) {
        worst = 0.0;
        for (int w = 0; w < WARPS; w++)
            for (int i = 0; i < 16; i++)
                for (int j = 0; j < 8; j++) {
                    double ref = c[w * 128 + i * 8 + j], mag = fabs(ref);
                    for (int x = 0; x < kk; x++) {
                        double p = av[w * 16 * kk + i * kk + x] * bv[w * kk * 8 + x * 8 + j];
                        ref += p;
                        mag += fabs(p);
                    }
                    double got = d[w * 128 + i * 8 + j];
                    double err = isfinite(got) ? fabs(got - ref) / mag : INFINITY;
                    if (!(err <= worst))
                        worst = err;
                }
    }
    for (int i = 0; i < 4; i++)
        if (bufs[i])
            clReleaseMemObject(bufs[i]);
    clReleaseKernel(k);
    return worst;
}

#define BOUND 0x1.0p-20

static void expect_bound(double err, bool planted, const char *what)
{
    checks++;
    bool ok = planted ? err > 1e-2 : (err >= 0.0 && err <= BOUND);
    failures += !ok;
    printf("%s %-58s max error %.3g (%s)\n", ok ? "ok  " : "FAIL", what, err,
           planted ? "must exceed 1e-2" : "bound 2^-20");
}

/* m16n8k16 with random operands: "unit" draws uniform values in [-1, 1) and rounds them;
 * "wide" draws bit patterns from both ends of the exponent range (f16 subnormals in A
 * against large B), so the emulation's conversion of every kind of value is exercised. */
static void test16(cl_context ctx, cl_command_queue q, cl_program prog, clgemm_dtype dtype,
                   bool wide, bool planted)
{
    cl_ushort a[WARPS * 256], b[WARPS * 128];
    double av[WARPS * 256], bv[WARPS * 128];
    for (int i = 0; i < WARPS * 256; i++) {
        a[i] = !wide ? clgemm_float_to_16bit(uniform(), dtype)
               : dtype == CLGEMM_F16 ? random_bits(dtype, 0, 4)       /* 2^-24 .. 2^-10 */
                                     : random_bits(dtype, 20, 40);    /* 2^-107 .. 2^-87 */
        av[i] = clgemm_16bit_to_float(a[i], dtype);
    }
    for (int i = 0; i < WARPS * 128; i++) {
        b[i] = !wide ? clgemm_float_to_16bit(uniform(), dtype)
               : dtype == CLGEMM_F16 ? random_bits(dtype, 24, 28)     /* 2^9 .. 2^14 */
                                     : random_bits(dtype, 200, 220);  /* 2^73 .. 2^94 */
        bv[i] = clgemm_16bit_to_float(b[i], dtype);
    }
    char what[128];
    snprintf(what, sizeof what, "m16n8k16 %s, %s operands%s", clgemm_dtype_name(dtype),
             wide ? "wide-range" : "uniform", planted ? ", planted a1/a2 swap" : "");
    expect_bound(run(ctx, q, prog, "frag16", a, sizeof a, b, sizeof b, av, bv, 16), planted,
                 what);
}

static void test8(cl_context ctx, cl_command_queue q, cl_program prog, bool planted)
{
    float a[WARPS * 128], b[WARPS * 64];
    double av[WARPS * 128], bv[WARPS * 64];
    for (int i = 0; i < WARPS * 128; i++)
        av[i] = a[i] = tf32(uniform());
    for (int i = 0; i < WARPS * 64; i++)
        bv[i] = b[i] = tf32(uniform());
    expect_bound(run(ctx, q, prog, "frag8", a, sizeof a, b, sizeof b, av, bv, 8), planted,
                 planted ? "m16n8k8 tf32, planted a1/a2 swap" : "m16n8k8 tf32");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_fragments CL_DIR\n");
        return 2;
    }
    size_t index;
    const clgemm_device_desc *dev = test_device("test_fragments", &index);
    if (!dev)
        return 1;
    bool hardware = dev->nv_cc_major >= 8;
    printf("device: %s (%s): %s\n", dev->name, dev->platform_name,
           hardware ? "the mma.sync instructions themselves" : "the emulation of mma.sync");
    char *src = full_source(argv[1]);
    if (!src) {
        fprintf(stderr, "test_fragments: cannot read mma/mma_sync.h under %s\n", argv[1]);
        return 1;
    }
    cl_int st;
    cl_context ctx = clCreateContext(NULL, 1, &dev->id, NULL, NULL, &st);
    cl_command_queue q = ctx ? clCreateCommandQueue(ctx, dev->id, 0, &st) : NULL;
    if (!q) {
        fprintf(stderr, "test_fragments: cannot open the device (%d)\n", st);
        return 1;
    }
    for (int planted = 0; planted <= 1; planted++)
        for (int bf16 = 0; bf16 <= 1; bf16++) {
            char opts[4400];
            /* -I: the header includes "mma/tf32.h" by its path under cl/. */
            snprintf(opts, sizeof opts, "-I %s -cl-std=CL1.2 -DDTYPE=%d -DPLANT_SWAP=%d%s", argv[1],
                     bf16 ? 2 : 1, planted, hardware ? "" : " -DCLGEMM_EMULATE_MMA=1");
            cl_program prog = build(ctx, dev->id, src, opts);
            if (!prog) {
                checks++;
                failures++;
                printf("FAIL build with %s\n", opts);
                continue;
            }
            clgemm_dtype dtype = bf16 ? CLGEMM_BF16 : CLGEMM_F16;
            test16(ctx, q, prog, dtype, false, planted);
            if (!planted)
                test16(ctx, q, prog, dtype, true, false);
            if (!bf16)
                test8(ctx, q, prog, planted);
            clReleaseProgram(prog);
        }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(src);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
