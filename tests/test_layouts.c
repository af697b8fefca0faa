/* clgemm_gemm on every operand description a program brings (public API only), on PoCL:
 * row- and column-major, op N and T per operand, tight and padded leading dimensions with odd
 * offsets, strided batches with a shared A (aligned ones as a single launch), 16-bit inputs on
 * the emulated matrix units, an out-of-order queue, and every invalid field refused with its
 * name (test_layouts_invalid.c).
 *
 * Each buffer is NaN wherever the call's operands do not lie (and C's windows too when
 * beta == 0): a kernel or pre-pass that reads outside its window, or writes outside C's,
 * shows as NaN in C or as a changed element outside.  C is checked against a double
 * reference with the error bound of host/cli/check: |c - ref| <= tol * (|alpha| sum|a*b| +
 * |beta*c0|), tol = 2^-24 max(4, 2 sqrt(K)) for fp32 SIMT and 2^-20 + 2 tol for 16-bit inputs.
 * Device from $CLGEMM_TEST_DEVICE, else pocl.
 *
 * This file has the cases (the sweeps and the single calls) and main; running and checking
 * one call is test_layouts_call.c, the refusals test_layouts_invalid.c. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "test_layouts.h"

/* "full" (the slow suite): every layout and pair of ops in each sweep.  Else (the quick suite)
 * both layouts with either the equal ops (N N, T T: SAME_OPS) or the mixed ones (N T, T N:
 * MIXED_OPS), as each sweep asks, the sweeps taking turns.  A column-major call is the
 * row-major one of C^T with the operands swapped, so both layouts of one op pair build the
 * same kernels: half the pairs is half the builds, and most of this test's time is PoCL
 * building kernels (seconds each with cold caches). */
static bool full;
enum { SAME_OPS, MIXED_OPS };

/* Every layout and pair of ops; the counts of one group go on one line. */
static void sweep(const char *group, spec base, const size_t sizes[][3], int nsizes,
                  const char *const *algos, int nalgos, int pads, int quick_ops)
{
    const int before = failures, runs_before = runs;
    for (int l = 0; l < 2; l++)
        for (int oa = 0; oa < 2; oa++)
            for (int ob = 0; ob < 2; ob++)
                for (int z = 0; z < nsizes && (full || (oa ^ ob) == (quick_ops == MIXED_OPS));
                     z++)
                    for (int al = 0; al < nalgos; al++)
                        for (int p = 0; p < pads; p++) {
                            spec s = base;
                            s.layout = (clgemm_layout)l;
                            s.op_a = (clgemm_op)oa;
                            s.op_b = (clgemm_op)ob;
                            s.M = sizes[z][0], s.N = sizes[z][1], s.K = sizes[z][2];
                            s.algorithm = algos[al];
                            s.padded = pads == 1 ? base.padded : p == 1;
                            /* Both paths of C (read or not) in each mode. */
                            if (base.beta != 0.0f)
                                s.beta = (z + p + oa) % 2 ? base.beta : 0.0f;
                            /* quick: one element type per op pair and size (one build) */
                            if (base.dtype != CLGEMM_F32)
                                s.dtype = (full ? oa + ob + l : ob + z + p) % 2 ? CLGEMM_BF16
                                                                               : CLGEMM_F16;
                            run(&s);
                        }
    printf("%s %s: %d calls, %d wrong\n", failures > before ? "FAIL" : "ok  ", group,
           runs - runs_before, failures - before);
}

int main(int argc, char **argv)
{
    full = argc > 1 && strcmp(argv[1], "full") == 0;
    if (argc > 1 && !full) {
        fprintf(stderr, "usage: test_layouts [full]\n");
        return 2;
    }
    /* Matrix-unit algorithms run through the emulation of their primitive here. */
    setenv("CLGEMM_EMULATE_MATRIX", "1", 0);
    const char *dev = getenv("CLGEMM_TEST_DEVICE");
    if (clgemm_open(dev && *dev ? dev : "pocl", &ctx) != CLGEMM_SUCCESS) {
        fprintf(stderr, "test_layouts: %s\n", clgemm_last_error());
        return 1;
    }
    cl = clgemm_cl_context(ctx);

    failures += test_layouts_invalid(ctx);

    static const size_t awkward[2][3] = { { 37, 29, 17 }, { 65, 33, 50 } };
    static const char *const simt[] = { "naive", "block_tiled_vectorized", "warp_tiled", NULL };
    const spec base = { .alpha = 1.25f, .beta = -0.5f, .dtype = CLGEMM_F32 };
    sweep("fp32 layouts x ops x sizes x algorithms, tight and padded", base, awkward, 2, simt, 4,
          2, SAME_OPS);

    /* Sizes every kernel reads in place when row-major N N: the pre-pass only for the rest. */
    static const size_t aligned[1][3] = { { 48, 40, 24 } };
    sweep("fp32 aligned sizes", base, aligned, 1, simt + 1, 2, 1, MIXED_OPS);

    /* Step 7 reads a transposed A or B where it lies: aligned operands of every layout and op
     * pair run the GEMM alone, nothing packed, at sizes that cut its 64 x 64 tiles and 8-deep
     * slices.  CLAMP=1: edge rows of a transposed A guarded (37: 4 does not divide M, while it
     * divides N, so that nothing else guards the tile) or clamped (68), edge rows of a
     * transposed B clamped (70: where B's columns would be guarded), the last K slice partial
     * (the default tile, CLAMP=0, guards its edge loads). */
    static const size_t odd[2][3] = { { 37, 28, 17 }, { 68, 70, 21 } };
    /* READT=1: step 7's default packs a transposed operand (faster at large sizes, see
     * host/lib/plan.c); the shape rules ask for the in-place read, as here.  The third is
     * the H100's batch rule for N T and T N less its MAXNREG=128 (a register cap on NVIDIA's
     * PTX that changes no arithmetic, and that PoCL cannot take): 16-deep slices, so K = 17
     * and 21 end in a partial one, clamped edges, the pipeline. */
    static const char *const wt[] = {
        "warp_tiled:BM=64,BN=64,BK=8,TM=8,TN=8,WM=64,WN=32,CLAMP=1,READT=1",
        "warp_tiled:READT=1", "warp_tiled:BK=16,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1" };
    spec in_place = base;
    in_place.aligned = ALIGNED, in_place.commands = 1, in_place.packs = 1;
    sweep("fp32 warp_tiled:READT=1, aligned: every transpose in place", in_place, odd, 2, wt, 3, 1,
          MIXED_OPS);

    /* Which calls pay for a pre-pass: none for row-major N N or column-major N N with aligned
     * offsets and leading dimensions (the swap moves no data); a transpose does. */
    const int f1 = failures;
    spec one = base;
    one.M = 48, one.N = 40, one.K = 24;
    one.algorithm = "block_tiled_vectorized";
    for (int l = 0; l < 2; l++) {
        one.layout = (clgemm_layout)l;
        one.op_a = CLGEMM_OP_N;
        one.commands = 1;
        run(&one);
        one.op_a = CLGEMM_OP_T;
        one.commands = 2;
        run(&one);
    }
    printf("%s aligned N N runs the GEMM alone, in both layouts; op T adds a pre-pass\n",
           failures > f1 ? "FAIL" : "ok  ");

    spec batched = base;
    batched.batch = 3;
    batched.padded = true;
    sweep("fp32 batch of 3, A shared, odd strides", batched, awkward, 1, simt, 3, 1, MIXED_OPS);

    /* A strided batch that every kernel reads in place is one launch (first == last), in
     * both layouts, A shared or strided, C read or not; NaN between rows and problems.
     * Shared and transposed, A is packed once for a kernel that reads no transposed A, then
     * the batch reads that copy (two commands at least); step 7 reads it in place, in one
     * launch.  A batch of 1 is the single GEMM it always was. */
    const int f2 = failures;
    spec one_launch = base;
    one_launch.M = 48, one_launch.N = 40, one_launch.K = 24;
    one_launch.aligned = ALIGNED;
    one_launch.commands = 1;
    static const char *const batched_algos[] = { "naive", "block_tiled_vectorized",
                                                 "warp_tiled", "mma", "mma",
                                                 "wgmma:BM=64,BN=64,WGN=64,BK=32" };
    for (int i = 0; i < 6 * 8; i++) {
        spec s = one_launch;
        s.algorithm = batched_algos[i / 8];
        s.dtype = i / 8 < 4 ? CLGEMM_F32 : i / 8 == 4 ? CLGEMM_F16 : CLGEMM_BF16;
        s.coarse = i / 8 == 3; /* tf32 on fp32 data: exact inputs */
        s.layout = (clgemm_layout)(i % 2);
        s.strided_a = (i / 2) % 2;
        s.beta = (i / 4) % 2 ? 0.0f : base.beta;
        s.batch = i % 3 ? 3 : 5;
        run(&s);
    }
    spec packed_a = one_launch;
    packed_a.op_a = CLGEMM_OP_T;
    packed_a.commands = 2;
    packed_a.batch = 4;
    packed_a.algorithm = "block_tiled_vectorized";
    run(&packed_a);
    spec shared_t = packed_a;
    shared_t.algorithm = "warp_tiled:READT=1";
    shared_t.commands = 1;
    run(&shared_t);
    one_launch.batch = 1;
    run(&one_launch);
    printf("%s aligned strided batches run as one GEMM launch\n", failures > f2 ? "FAIL" : "ok  ");

    spec h = base;
    h.dtype = CLGEMM_F16;
    static const char *const mma[] = { "mma" };
    sweep("16-bit inputs on the emulated mma", h, awkward, 1, mma, 1, 2, SAME_OPS);

    /* Step 10's own TF32 pre-pass (B^T and A rounded into its scratch) reads A and B as they
     * lie, and C is written in place; step 9 reads 16-bit operands at multiples of 8.  Both
     * emulated. */
    spec t = base;
    t.coarse = true, t.packs = 1; /* its pre-pass reads any layout, and C is written in place */
    static const char *const tma[] = { "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2" };
    sweep("fp32 as TF32 on the emulated wgmma_tma (exact inputs)", t, awkward, 1, tma, 1, 2,
          MIXED_OPS);
    t.batch = 3; /* a batch in one launch, odd strides: A shared, then strided (tf32x3) */
    sweep("fp32 as TF32 on wgmma_tma, a batch of 3, A shared", t, awkward, 1, tma, 1, 1,
          SAME_OPS);
    t.strided_a = true;
    static const char *const tma3[] = { "wgmma_tma:SPLIT=1,BM=64,BN=64,WGN=64,BK=16,STAGES=2" };
    sweep("fp32 as tf32x3 on wgmma_tma, a batch of 3, A strided", t, awkward + 1, 1, tma3, 1, 1,
          MIXED_OPS);
    /* A split in registers (PACKA 3): A read as stored, never through the rounding pass (a
     * misaligned A, or one at an odd batch stride, is copied aligned first: either pass); and
     * swapped with the other operand split in local memory by the rounding warpgroup (PACKB 2,
     * the small-M rules' form: where that operand cannot be read in place, the pass copies it
     * exactly and the kernel still splits it) */
    static const char *const tma3r[] = {
        "wgmma_tma:SPLIT=1,PACKA=3,BM=64,BN=64,WGN=64,BK=16,STAGES=2",
        "wgmma_tma:SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1,SWAP=1,BM=64,BN=64,WGN=64,BK=16,STAGES=2" };
    spec t3 = t;
    t3.packs = 0;
    sweep("fp32 as tf32x3 on wgmma_tma, A split in registers, a batch of 3, A strided", t3,
          awkward + 1, 1, tma3r, 2, 1, MIXED_OPS);
    /* PERSIST (fewer groups than problems, each running its tile of several; PoCL's two
     * compute units make it one group deep: the ring and the stores carried over) with
     * TSTORE: C stored by the copy engine (tensor-map boxes, clipped at C's edges) where it is
     * not read (beta 0, every other call here), lies on 16 bytes (aligned) and its rows end
     * on 16 bytes (24 and 40 columns); elsewhere (33 and 65 columns, or beta != 0) the
     * staged stores PERSIST had before.  The NaN between C's rows and problems shows any
     * write past the edges. */
    static const size_t ends[2][3] = { { 24, 40, 17 }, { 65, 33, 50 } };
    spec ta = t;
    ta.aligned = ALIGNED, ta.commands = 0;
    static const char *const persist[] = {
        "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2,PACKA=3,PERSIST=1,TSTORE=1"
    };
    sweep("fp32 as TF32 on wgmma_tma, a batch of 3, aligned, PERSIST=1, TSTORE=1", ta, ends, 2,
          persist, 1, 1, MIXED_OPS);
    /* A in registers (PACKA=3) reads A stored K x M where it lies (mma/tma_a_regs.h), and
     * swapped (SWAP=1) that A is B stored K x N (op N), with the rounding warpgroup: every
     * transpose, padded (odd offsets and leading dimensions: A copied aligned first, still
     * K x M), a batch of 3.  The aligned sweep above (PERSIST, unswapped) reads A stored
     * K x M (op T) in place.  The second is the form tensor_core runs beyond the rules where
     * N > M (api_tf32_registers): B pre-passed, the producer's registers the consumers'. */
    static const char *const regs_t[] = {
        "wgmma_tma:BM=128,BN=64,WGN=64,BK=16,STAGES=2,PACKA=3,PACKB=2,ROUNDER=1,SWAP=1",
        "wgmma_tma:BM=128,BN=64,WGN=64,BK=32,STAGES=2,PACKA=3,SETMAXNREG=1,SWAP=1"
    };
    spec tr = t;
    tr.batch = 3, tr.strided_a = true, tr.packs = 0, tr.padded = true;
    sweep("fp32 as TF32 on wgmma_tma, A in registers read as stored, a batch of 3", tr, awkward,
          1, regs_t, 2, 1, MIXED_OPS);
    /* The small-M TF32 form (swapped: the kernel's B is the caller's A, read in place and
     * rounded in local memory) runs alone where A's rows and offset lie on 32 bytes; on 16 but
     * not 32 the pre-pass copies A first (prepass_tf32.c, as plan.c for 16-bit). */
    const int ftb = failures, rtb = runs;
    for (int a = ALIGNED / 4; a <= ALIGNED / 2; a *= 2) {
        spec s = t;
        s.aligned = a, s.commands = a == ALIGNED / 2 ? 1 : 2, s.packs = 0, s.batch = 1;
        s.strided_a = false;
        s.op_b = CLGEMM_OP_T, s.M = 65, s.N = 33, s.K = 50;
        s.algorithm = regs_t[0];
        run(&s);
    }
    printf("%s TF32 small-M form: A in place on 32 bytes, copied first on 16: %d calls, %d wrong\n",
           failures > ftb ? "FAIL" : "ok  ", runs - rtb, failures - ftb);
    /* Step 10 reads 16-bit operands where they lie, transposed or not: aligned ones of every
     * layout and op pair run the GEMM alone, nothing packed. */
    static const char *const tma16[] = { "wgmma_tma:BM=128,BN=128,WGN=64,BK=16,STAGES=2" };
    spec n = h;
    n.aligned = ALIGNED, n.commands = 1, n.packs = 1;
    sweep("16-bit on the emulated wgmma_tma, aligned: every transpose in place", n, awkward, 2,
          tma16, 1, 1, MIXED_OPS);
    n.batch = 3; /* and a batch in one launch: A shared (stride 0), then A strided too */
    sweep("16-bit wgmma_tma, a batch of 3 in one launch", n, awkward, 1, tma16, 1, 1, MIXED_OPS);
    n.strided_a = true;
    sweep("16-bit wgmma_tma, a batch of 3 in one launch, A strided", n, awkward + 1, 1, tma16, 1,
          1, MIXED_OPS);
    static const char *const persist16[] = { /* as the TF32 one above */
        "wgmma_tma:BM=128,BN=128,WGN=64,BK=16,STAGES=2,PERSIST=1,TSTORE=1"
    };
    sweep("16-bit wgmma_tma, a batch of 3, PERSIST=1, TSTORE=1", n, ends, 2, persist16, 1, 1,
          SAME_OPS);
    /* Rows and offsets on 16 bytes but not on 32: the copy engine could read them in place,
     * but the kernel's B (read again by every block of A) comes at up to half speed so, and
     * is copied first; A stays in place (plan.c).  Column-major runs C^T = B^T A^T: there the
     * kernel's B is the caller's A. */
    const int f16b = failures, r16b = runs;
    spec half = n;
    half.aligned = ALIGNED / 2, half.commands = 2, half.batch = 1, half.strided_a = false;
    for (int l = 0; l < 2; l++)
        for (int o = 0; o < 4; o++) {
            spec s = half;
            s.layout = (clgemm_layout)l;
            s.op_a = (clgemm_op)(o / 2), s.op_b = (clgemm_op)(o % 2);
            s.M = awkward[o % 2][0], s.N = awkward[o % 2][1], s.K = awkward[o % 2][2];
            s.dtype = o % 2 ? CLGEMM_BF16 : CLGEMM_F16;
            s.algorithm = tma16[0];
            s.packs = 1 + (int)(l == 0 ? CLGEMM_PACKS_B : CLGEMM_PACKS_A);
            run(&s);
        }
    /* Not in a batch whose B is strided: a copy per problem would run a launch per problem,
     * slower than reading B in place, so the batch stays one launch (row-major).  A B shared
     * by the batch (column-major: the caller's A, stride 0) is still copied, once. */
    for (int l = 0; l < 2; l++) {
        spec s = half;
        s.layout = (clgemm_layout)l, s.op_b = (clgemm_op)l;
        s.M = awkward[l][0], s.N = awkward[l][1], s.K = awkward[l][2];
        s.dtype = l ? CLGEMM_BF16 : CLGEMM_F16;
        s.algorithm = tma16[0];
        s.batch = 3, s.commands = 1 + l, s.packs = 1 + (int)(l ? CLGEMM_PACKS_A : 0);
        run(&s);
    }
    printf("%s 16-bit wgmma_tma, rows on 16 bytes but not 32: B copied first (one copy), A in "
           "place: %d calls, %d wrong\n", failures > f16b ? "FAIL" : "ok  ", runs - r16b, failures - f16b);
    static const char *const wg[] = { "wgmma:BM=64,BN=64,WGN=64,BK=32" };
    sweep("16-bit inputs on the emulated wgmma", h, awkward, 1, wg, 1, 1, MIXED_OPS);

    /* The fixed-layout wrappers pack misaligned operands now, rather than refusing them. */
    const int before = failures;
    spec w = base;
    w.wrapper = w.padded = true;
    w.M = 37, w.N = 29, w.K = 17;
    for (int i = 0; i < 3; i++) {
        w.algorithm = simt[i];
        run(&w);
    }
    w.dtype = CLGEMM_BF16;
    w.algorithm = "mma";
    run(&w);
    printf("%s wrappers at odd offsets and leading dimensions\n", failures > before ? "FAIL" : "ok  ");

    /* An out-of-order queue: the call orders its own commands (pre-passes, GEMMs, copies). */
    cl_int err;
    cl_command_queue ooo = clCreateCommandQueue(
        cl, clgemm_device(ctx)->id,
        CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (ooo) {
        spec o = batched;
        o.queue = ooo;
        o.layout = CLGEMM_COL_MAJOR;
        o.op_a = o.op_b = CLGEMM_OP_T;
        o.M = 65, o.N = 33, o.K = 50;
        o.algorithm = "warp_tiled";
        const int f0 = failures;
        for (int i = 0; i < 4; i++)
            run(&o);
        packed_a.queue = ooo; /* A packed once, then the batch's one launch after a barrier */
        run(&packed_a);
        printf("%s out-of-order queue: batches through every pre-pass\n",
               failures > f0 ? "FAIL" : "ok  ");
        clReleaseCommandQueue(ooo);
    } else {
        printf("skip out-of-order queue: %d\n", err);
    }

    clgemm_close(ctx);
    printf("%d calls, %d failed\n", runs, failures);
    return failures ? 1 : 0;
}
