/* Results that must be equal bit for bit.
 *
 * 1. Split-K sums in another order than one pass over K, but in a fixed one: the same call
 *    must give the same C at every run (no atomics, no order left to the scheduler).  Each
 *    form runs the same problem five times into fresh C buffers (NaN first); a split that
 *    leaves a shorter last slice and B stored both ways are among them.
 * 2. Step 10's TF32 operands rounded in local memory (PACKA / PACKB = 2) or A in registers
 *    (PACKA = 3, wgmma with A from registers) against the same tile fed by the rounding
 *    pre-pass (1): the same tf32 values reach the same wgmmas in the same order, so C must
 *    not differ by one bit.  The planted counterpart, A truncated by
 *    the tensor core (PACKA = 0), must differ: the inputs have low bits that rounding and
 *    truncation treat differently, so an operand left unrounded cannot pass.
 * 4. Step 11 with A staged in local memory (AL) against the same form reading A through the
 *    cache: each lane takes the same vectors of k in the same order, so C must not differ by
 *    one bit.  The planted counterpart, other lanes per column (KT), must differ.
 * Device: $CLGEMM_TEST_DEVICE, else PoCL (whose matrix units need CLGEMM_EMULATE_MATRIX=1).
 * Each step 10 form is a PoCL build of its own (seconds each with cold kernel caches), so the
 * quick suite runs part 2 with B stored N x K (both operands read in place) and the pairs
 * that cover each way of rounding once; "full" (the slow suite) runs every pair both ways
 * and part 3 on every kernel. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"

#define RUNS 5

/* M x N x K: with SPLITK=4, 1000 = 3 x 256 + 232 in step 11's one launch and 4 x 248 + 8 in
 * step 7's two; M > BM of the skinny forms. */
enum { M = 17, N = 45, K = 1000 };

/* Part 3's inputs: integers in -32..32, so that the sums are exact and many fall halfway
 * between two 16-bit neighbours (where rounding to nearest even is put to the test). */
static bool integers;

/* Runs form RUNS times (each equal to the first, or a failure line) with C of type ct; c0
 * receives C. */
static int run_c(clgemm_context *ctx, const char *form, clgemm_op op_b, clgemm_dtype t,
                 clgemm_dtype ct, void *c0)
{
    const size_t ce = ct == CLGEMM_F32 ? 4 : 2;
    const size_t elem = t == CLGEMM_F32 ? 4 : 2;
    cl_context cl = clgemm_cl_context(ctx);
    cl_command_queue q = clgemm_cl_queue(ctx);
    unsigned char *a = malloc(M * K * elem), *b = malloc(K * N * elem);
    float *c[RUNS];
    srand(7);
    for (size_t i = 0; i < M * K + K * N; i++) {
        const float v = integers ? (float)(rand() % 65 - 32) : (float)rand() / RAND_MAX * 2 - 1;
        unsigned char *dst = i < M * K ? a + i * elem : b + (i - M * K) * elem;
        if (t == CLGEMM_F32)
            memcpy(dst, &v, 4);
        else {
            const cl_ushort h = clgemm_float_to_16bit(v, t);
            memcpy(dst, &h, 2);
        }
    }
    cl_int err;
    cl_mem A = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, M * K * elem, a, &err);
    cl_mem B = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, K * N * elem, b, &err);
    int bad = 0;
    for (int r = 0; r < RUNS; r++) {
        c[r] = malloc(M * N * sizeof(float));
        for (size_t i = 0; i < M * N; i++)
            c[r][i] = 0.0f / 0.0f; /* NaN in either type: all bits set in the 16-bit halves */
        cl_mem C = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, M * N * ce,
                                  c[r], &err);
        const clgemm_gemm_desc d = { .algorithm = form, .op_b = op_b, .M = M, .N = N, .K = K,
                                     .alpha = 1.0f, .beta = 0.0f, .ab_type = t,
                                     .A = A, .ld_a = K, .B = B,
                                     .ld_b = op_b == CLGEMM_OP_T ? K : N, .C = C, .ld_c = N,
                                     .c_type = ct };
        if (!C || clgemm_gemm(ctx, &d, NULL, NULL, NULL) != CLGEMM_SUCCESS ||
            clEnqueueReadBuffer(q, C, CL_TRUE, 0, M * N * ce, c[r], 0, NULL, NULL) != CL_SUCCESS) {
            printf("FAIL %s: %s\n", form, clgemm_last_error());
            bad = 1;
        } else if (r > 0 && memcmp(c[r], c[0], M * N * ce) != 0) {
            printf("FAIL %s %s %s: run %d differs from run 0\n", form,
                   op_b == CLGEMM_OP_T ? "NT" : "NN", clgemm_dtype_name(t), r);
            bad = 1;
        }
        if (C)
            clReleaseMemObject(C);
    }
    if (!bad)
        printf("ok   %-40s %s %-4s %d runs, equal bit for bit\n", form,
               op_b == CLGEMM_OP_T ? "NT" : "NN", clgemm_dtype_name(t), RUNS);
    memcpy(c0, c[0], M * N * ce);
    for (int r = 0; r < RUNS; r++)
        free(c[r]);
    free(a);
    free(b);
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    return bad;
}

static int run_form(clgemm_context *ctx, const char *form, clgemm_op op_b, clgemm_dtype t,
                    float *c0)
{
    return run_c(ctx, form, op_b, t, CLGEMM_F32, c0);
}

/* Part 3: a 16-bit C is the fp32 C rounded once to nearest even (beta = 0: the same sums
 * reach the same store), whether the kernel rounds by hand or by PTX's paired cvt (on NVIDIA
 * sm_80+, CLGEMM_NV_SM80).  t: the data, bf16 or (SIMT step 7) f32, integers either way. */
static int c16_matches(clgemm_context *ctx, const char *form, clgemm_dtype t, clgemm_dtype ct)
{
    static float c[M * N];
    static cl_ushort h[M * N];
    integers = true;
    int bad = run_form(ctx, form, CLGEMM_OP_T, t, c);
    bad += run_c(ctx, form, CLGEMM_OP_T, t, ct, h);
    integers = false;
    size_t diff = 0;
    for (size_t i = 0; i < (size_t)M * N; i++)
        diff += h[i] != clgemm_float_to_16bit(c[i], ct);
    printf("%s %s, C %s: %zu of %d values differ from the fp32 C rounded on the host\n",
           diff ? "FAIL" : "ok  ", form, clgemm_dtype_name(ct), diff, M * N);
    return bad + (diff != 0);
}

int main(int argc, char **argv)
{
    const bool full = argc > 1 && strcmp(argv[1], "full") == 0;
    if (argc > 1 && !full) {
        fprintf(stderr, "usage: test_bitwise [full]\n");
        return 2;
    }
    const char *spec = getenv("CLGEMM_TEST_DEVICE");
    clgemm_context *ctx;
    if (clgemm_open(spec && *spec ? spec : "pocl", &ctx) != CLGEMM_SUCCESS) {
        fprintf(stderr, "test_bitwise: %s\n", clgemm_last_error());
        return 1;
    }
    static const char *const forms[] = { "skinny:BM=16,RN=4,SPLITK=4", "warp_tiled:SPLITK=4" };
    static const clgemm_dtype types[] = { CLGEMM_F32, CLGEMM_BF16 };
    static float c[M * N], same[M * N];
    int failed = 0;
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
        for (int nt = 0; nt <= 1; nt++)
            for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
                if (clgemm_algorithm_has_dtype(forms[f], types[t]))
                    failed += run_form(ctx, forms[f], nt ? CLGEMM_OP_T : CLGEMM_OP_N, types[t],
                                       c);
    /* Part 2: with B stored N x K both operands are read in place (lds of 1000 values lie on
     * 16 bytes); stored K x N, B goes through the pre-pass whatever PACKB says. */
#define TILE "wgmma_tma:BM=64,BN=64,WGN=64,STAGES=4"
#define WIDE "wgmma_tma:BM=128,BN=64,WGN=64,STAGES=4" /* two consumers, as SETMAXNREG needs */
    static const char *const pairs[][2] = {
        { TILE, TILE ",PACKA=2,PACKB=2" }, { TILE, TILE ",PACKB=2" }, { TILE, TILE ",PACKA=2" },
        { TILE ",SPLITK=2", TILE ",PACKA=2,PACKB=2,SPLITK=2" },
        { TILE, TILE ",PACKA=3" }, { TILE, TILE ",PACKA=3,PACKB=2" },
        { TILE ",SPLITK=2", TILE ",PACKA=3,PACKB=2,SPLITK=2" },
        { TILE, TILE ",PACKA=2,PACKB=2,ROUNDER=1" },
        { TILE ",SPLITK=2", TILE ",PACKA=3,PACKB=2,ROUNDER=1,SPLITK=2" },
        { WIDE, WIDE ",PACKA=3,SETMAXNREG=1" },
        { TILE ",SPLIT=1,PACKA=3", TILE ",SPLIT=1,PACKA=3,PACKB=2" },
        { TILE ",SPLIT=1,PACKA=3,SPLITK=2", TILE ",SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=2" },
        { TILE ",SPLIT=1", TILE ",SPLIT=1,PACKB=2" },
    };
    /* quick: rounded in local memory (both), A in registers, the rounding warpgroup with a
     * split of K, A in registers with the producer's registers (tensor_core's TF32), and
     * tf32x3's B split in local memory by the rounding warpgroup (against the pre-pass's) */
    static const size_t quick_pairs[] = { 0, 5, 8, 9, 11 };
    const size_t npairs = full ? sizeof pairs / sizeof pairs[0]
                               : sizeof quick_pairs / sizeof quick_pairs[0];
    for (int nt = full ? 0 : 1; nt <= 1; nt++) {
        const clgemm_op op = nt ? CLGEMM_OP_T : CLGEMM_OP_N;
        const char *tn = nt ? "NT" : "NN";
        for (size_t i = 0; i < npairs; i++) {
            const size_t f = full ? i : quick_pairs[i];
            failed += run_form(ctx, pairs[f][0], op, CLGEMM_F32, c);
            failed += run_form(ctx, pairs[f][1], op, CLGEMM_F32, same);
            const bool equal = memcmp(c, same, sizeof c) == 0;
            printf("%s %s %s: %s %s\n", equal ? "ok  " : "FAIL", pairs[f][1], tn,
                   equal ? "equal bit for bit to" : "differs from", pairs[f][0]);
            failed += !equal;
        }
        failed += run_form(ctx, TILE, op, CLGEMM_F32, c);
        failed += run_form(ctx, TILE ",PACKA=0", op, CLGEMM_F32, same);
        const bool differs = memcmp(c, same, sizeof c) != 0;
        printf("%s planted: " TILE ",PACKA=0 (A truncated) %s %s\n", differs ? "ok  " : "FAIL",
               tn, differs ? "differs, as it must" : "is equal: the comparison cannot see "
                                                    "an operand left unrounded");
        failed += !differs;
    }
    /* Part 4 (quick: B stored N x K in fp32, the rule's case; full: both layouts, bf16 too,
     * and the planted counterpart).  K = 1000 in 4 slices: several chunks of AL per slice. */
#define SKINNY "skinny:BM=16,KT=8,RN=2,SPLITK=4"
    for (int nt = full ? 0 : 1; nt <= 1; nt++)
        for (size_t t = 0; t < (full ? 2u : 1u); t++) {
            const clgemm_op op = nt ? CLGEMM_OP_T : CLGEMM_OP_N;
            const char *tn = nt ? "NT" : "NN", *ty = clgemm_dtype_name(types[t]);
            failed += run_form(ctx, SKINNY, op, types[t], c);
            failed += run_form(ctx, SKINNY ",AL=64", op, types[t], same);
            const bool equal = memcmp(c, same, sizeof c) == 0;
            printf("%s " SKINNY ",AL=64 %s %s: %s " SKINNY "\n", equal ? "ok  " : "FAIL", tn, ty,
                   equal ? "equal bit for bit to" : "differs from");
            failed += !equal;
            if (!full)
                continue;
            failed += run_form(ctx, "skinny:BM=16,KT=16,RN=2,SPLITK=4,AL=128", op, types[t], same);
            const bool differs = memcmp(c, same, sizeof c) != 0;
            printf("%s planted: KT=16 %s %s %s\n", differs ? "ok  " : "FAIL", tn, ty,
                   differs ? "differs, as it must" : "is equal: the comparison cannot see "
                                                     "another order of the sums");
            failed += !differs;
        }
    static const struct {
        const char *form;
        clgemm_dtype data;
    } stores[] = { { "wgmma_tma:BM=64,BN=64,WGN=64,STAGES=4", CLGEMM_BF16 },
                   { "skinny:BM=16,RN=4", CLGEMM_BF16 },
                   { "warp_tiled", CLGEMM_F32 },
                   { "mma", CLGEMM_BF16 } };
    /* quick: step 7's and mma's 16-bit C (the last two: their PTX conversion runs only on
     * NVIDIA, which runs the full form; four cold PoCL builds the README's five minutes
     * cannot spare) are left to the full run */
    const size_t nstores = sizeof stores / sizeof stores[0] - (full ? 0 : 2);
    for (size_t f = 0; f < nstores; f++)
        if (clgemm_algorithm_has_dtype(stores[f].form, stores[f].data)) {
            failed += c16_matches(ctx, stores[f].form, stores[f].data, CLGEMM_F16);
            failed += c16_matches(ctx, stores[f].form, stores[f].data, CLGEMM_BF16);
        }
    clgemm_close(ctx);
    printf("%s\n", failed ? "FAILED" : "ok");
    return failed ? 1 : 0;
}
