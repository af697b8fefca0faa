/* Every algorithm of the registry (CLBlast included) against a full double-precision
 * reference, on one device (PoCL in CI; the matrix units through their emulations), each
 * case twice:
 *   - tight buffers: leading dimension = columns (rounded up to the algorithm's vector
 *     width), a nonzero offset into each buffer, alpha = -1.5 and beta = 0.5;
 *   - padded buffers (rows to 32 floats, NaN in the padding), alpha = 1, beta = 0 with C
 *     full of NaN, so reading C or past a row's end shows up as a failure.
 * Every element type an algorithm takes is run (16-bit data on 16-bit buffers; the row must
 * say it ran the 16-bit kernel, so an fp32 fallback cannot pass for it).
 *
 * usage: test_correctness MODE [ALGO...]   (default: all; device from $CLGEMM_TEST_DEVICE,
 *        else "pocl")
 *   quick   a handful of awkward sizes (the default `meson test`)
 *   full    many sizes and, for the matrix-unit steps, tile shapes beyond the defaults
 *   ksweep  the matrix-unit names at tiny K (1, 2, 3, 5, 8, 9) with at least 4096 entries of
 *           C: one product dominates an entry, so the worst single product's rounding is
 *           seen, which an error bound that assumes the wrong rounding fails
 *   layouts the general call: every transpose (NN, NT, TN, TT) in both layouts, each with one
 *           of two awkward sizes, tight or padded leading dimensions (--ld-pad 0 or 3), odd
 *           offsets, one problem or a batch of 3 -- eight cases per algorithm and element
 *           type, chosen so that every pair of those choices occurs (pairwise, not the full
 *           product, which would not fit the quick suites); 16-bit kernels alternate f16 and
 *           bf16.  Each case also has a C type (f32, f16, bf16) and an epilogue (none, bias,
 *           relu, bias_relu, gelu, bias_gelu): every algorithm and element type gets every
 *           epilogue and every C type, and across the algorithms every pair of C type,
 *           epilogue, layout, transpose, padding and batch occurs (CLBlast, which has none of
 *           them, keeps the plain fp32 C); then step 7 reading transposed operands in place
 *           (READT=1) on the six cases with a transpose, and step 10 storing C by the copy
 *           engine (TSTORE=1) on six aligned cases per form, every epilogue (shard 2 of a
 *           split run)
 *   skinny  small M, long K (step 11 and split-K): M in {1, 3, 17}, N odd, K up to 2053, B
 *           stored K x N and N x K, tight (alpha, beta, offsets) and NaN-padded; each step 11
 *           form and split counts forced on several kernels (SPLITK, every one leaving a
 *           shorter last slice), every element type they take, the last case of each
 *           with a bf16 C and bias_gelu; `skinny full` adds more forms and sizes */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "runner.h"

static const gemm_shape quick_sizes[] = { { 1, 1, 1 }, { 33, 17, 65 }, { 127, 129, 31 } };
static const gemm_shape full_sizes[] = {
    { 1, 1, 1 },       { 2, 2, 2 },       { 7, 7, 7 },       { 16, 16, 16 },
    { 33, 33, 33 },    { 64, 64, 64 },    { 65, 65, 65 },    { 127, 129, 31 },
    { 256, 256, 256 }, { 300, 200, 100 }, { 1000, 17, 513 },
};
static const gemm_shape sizes16[] = {
    { 1, 1, 1 }, { 37, 45, 29 }, { 129, 67, 41 }, { 64, 64, 64 }, { 200, 136, 100 },
};
static const gemm_shape ksweep_sizes[] = {
    { 96, 96, 1 }, { 64, 64, 2 }, { 65, 64, 3 }, { 3, 4097, 5 }, { 64, 65, 8 }, { 70, 60, 9 },
};

/* Tile shapes beyond the defaults (full mode), run when their algorithm is asked for, for
 * the element types each was written for (bit 0 fp32, bits 1-2 f16 and bf16). */
#define F32_ONLY 1u
#define BITS16_ONLY 6u
static const struct {
    const char *spec;
    unsigned dtypes;
} extra_variants[] = {
    /* step 8: another warp grid with a K slice longer than most K here (two such fp32
     * slices would not fit 48 KiB); ldmatrix */
    { "mma:BM=64,BN=64,BK=64,WM=32,WN=32,TM=8,TN=4", BITS16_ONLY },
    { "mma:BM=64,BN=64,BK=32,WM=32,WN=32,TM=8,TN=4", F32_ONLY },
    { "mma:LDMATRIX=1", F32_ONLY },
    /* step 9: a 64-row tile with three stages and one wgmma left in flight */
    { "wgmma:BM=64,BN=128,WGN=128,BK=32,STAGES=3,WAIT=1", BITS16_ONLY },
    /* step 10, 16-bit: one consumer on 64 x 256 at BK 16, two on 128 x 128, three B panels
     * and three wgmmas per k step at BK 32, BK 64 (128-byte swizzle) in bands of 3 */
    { "wgmma_tma:BM=64,BN=256,BK=16,STAGES=4,INFLIGHT=1,GM=16", BITS16_ONLY },
    { "wgmma_tma:BM=128,BN=128,WGN=128,BK=16,STAGES=4,GM=8", BITS16_ONLY },
    { "wgmma_tma:BM=64,BN=192,WGN=64,BK=32,STAGES=2", BITS16_ONLY },
    { "wgmma_tma:BM=64,BN=64,WGN=64,BK=64,STAGES=2,GM=3", BITS16_ONLY },
    /* step 10, TF32: A truncated with wgmmas of N = 64 in bands of 3, BK 32 on 64 x 64;
     * tf32x3 with chains of 1 and 3 slices */
    { "wgmma_tma:PACKA=0,WGN=64,GM=3", F32_ONLY },
    /* A rounded in registers (RS wgmma): BK 32 with B rounded in local memory, BK 8 with
     * four wgmmas of N = 32 per k step */
    { "wgmma_tma:PACKA=3,PACKB=2,BM=128,BN=64,WGN=64,BK=32,STAGES=2", F32_ONLY },
    { "wgmma_tma:PACKA=3,BM=64,BN=128,WGN=32,BK=8,STAGES=3", F32_ONLY },
    /* ... with a slice's four k steps loaded before one fence, and the producer a warpgroup
     * that hands its registers over (SETMAXNREG, as tensor_core runs TF32 beyond the rules) */
    { "wgmma_tma:PACKA=3,SETMAXNREG=1,BM=128,BN=64,WGN=64,BK=32,STAGES=2", F32_ONLY },
    { "wgmma_tma:BM=64,BN=64,WGN=64,BK=32,STAGES=2", F32_ONLY },
    { "wgmma_tma:SPLIT=1,BM=64,BN=128,WGN=64,BK=16,STAGES=3,GM=3,PROMOTE=3", F32_ONLY },
    { "wgmma_tma:SPLIT=1,BK=8,PROMOTE=1", F32_ONLY },
    /* tf32x3 with A split in registers (PACKA 3), swapped as the small-M rules run it */
    { "wgmma_tma:SPLIT=1,PACKA=3,SWAP=1,BM=64,BN=64,WGN=64,BK=16,STAGES=3", F32_ONLY },
    { "wgmma_tma:SPLIT=1,PACKA=3,SETMAXNREG=1,SWAP=1,BM=128,BN=64,WGN=64,BK=16,STAGES=2",
      F32_ONLY },
    /* ... and B split in local memory by the rounding warpgroup (PACKB 2, no pass) */
    { "wgmma_tma:SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1,SWAP=1,BM=64,BN=64,WGN=64,BK=16,STAGES=3",
      F32_ONLY },
};

/* layouts mode: two awkward sizes (odd everywhere, no dimension a multiple of a tile). */
static const gemm_shape layout_sizes[] = { { 37, 29, 19 }, { 70, 45, 33 } };

/* skinny mode: (M, N, K) with K cut into slices that leave a shorter last one for the
 * SPLITK below (step 11 in one launch: 2053 = 1032 + 1021, 1000 = 3 x 256 + 232;
 * the others a short rest: 2053 = 2 x 1024 + 5, 1000 = 3 x 328 + 16, 333 = 2 x 160 + 13),
 * and a K too short to cut, which a split plan still finishes through its reduction. */
static const gemm_shape skinny_sizes[] = { { 1, 31, 2053 }, { 3, 257, 1000 }, { 17, 45, 333 },
                                           { 2, 9, 7 } };
static const gemm_shape skinny_full_sizes[] = { { 1, 1, 1 }, { 5, 4097, 65 },
                                                { 16, 63, 1531 }, { 33, 129, 517 } };
static const char *const skinny_forms[] = {
    "skinny:BM=4,KT=8,UNROLL=2", "skinny:RN=3,KT=16,BM=2,WG=64,AL=128,SPLITK=3",
    "warp_tiled:SPLITK=3", "block_tiled_vectorized:SWAP=1,SPLITK=2",
    /* the fp32 16 < M <= 64 rules' forms (tuning/): 64-row tiles; NT swapped, X packed */
    "warp_tiled:BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16,SPLITK=5",
    "warp_tiled:SWAP=1,READT=0,BM=128,BN=64,BK=8,TM=8,TN=8,WM=64,WN=32,SPLITK=6",
};
/* With SWAP=1 the small M is the kernel's N: step 10's narrow wgmmas (N = 16, 8), split. */
static const char *const skinny_full_forms[] = {
    "skinny", "skinny:SPLITK=4", "block_tiled_vectorized:SPLITK=5",
    "skinny:KT=8,RN=2,UNROLL=2,BM=16,AL=64,SPLITK=3", "skinny:KT=32,RN=8,UNROLL=1,BM=16,SPLITK=2",
    "skinny:BM=16,RN=4,UNROLL=2", "skinny:KT=128,RN=4,UNROLL=1,BM=2", "skinny:WG=64,KT=64",
    "tiled:SPLITK=2", "mma:SPLITK=3", "wgmma_tma:BM=64,BN=16,WGN=16,BK=16,STAGES=3,SWAP=1",
    "wgmma_tma:BM=128,BN=8,WGN=8,STAGES=2,SWAP=1,SPLITK=3",
};

/* layouts mode: the swapped problem (SWAP=1: C^T = op(B)^T op(A)^T, C stored transposed by
 * the kernel, or by the split's reduction) on a SIMT step, a split one and step 10, each a
 * group of its own (every epilogue and C type).  Step 10's narrow wgmmas (N < 64) need B
 * K-major, which the skinny forms give them. */
static const char *const layout_swapped_forms[] = {
    "warp_tiled:SWAP=1", "block_tiled_vectorized:SWAP=1,SPLITK=2",
    "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2,SWAP=1",
};

/* layouts mode: step 7 reading a transposed A or B where it lies (GEMM_TRANS_A/B).  Its
 * default, READT=0, packs a transposed operand first, so no other group runs that code. */
static const char *const layout_read_t_form = "warp_tiled:READT=1";

/* layouts mode: step 10 storing C by the copy engine (TSTORE=1), which it does only where C
 * lies on 16 bytes and is not read: one form per element type, one with PERSIST. */
static const char *const layout_tstore_forms[] = {
    "wgmma_tma:BM=128,BN=128,WGN=64,BK=16,STAGES=2,PERSIST=1,TSTORE=1",
    "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2,PACKA=3,TSTORE=1",
};

typedef enum { QUICK, FULL, KSWEEP, LAYOUTS, SKINNY } mode;

static int cases, failed;

/* One algorithm on one problem, checked against the full reference; what the case was is
 * `what`. */
static void run_request_case(session *s, const char *algo, run_request req, const char *what)
{
    const clgemm_dtype dtype = req.dtype;
    const gemm_shape shape = req.shape;
    req.algos = &algo;
    req.nalgos = 1;
    req.iters = 1;
    req.warmup = 0;
    req.check = CHECK_FULL;
    run_result res;
    errbuf e = { "" };
    cases++;
    if (session_run(s, &req, &res, &e) != 0) {
        printf("FAIL %s %s: %s\n", algo, clgemm_dtype_name(dtype), e.msg);
        failed++;
        return;
    }
    const run_row *row = &res.rows[0];
    bool ok = row->status == ROW_OK;
    if (dtype != CLGEMM_F32) /* must have run the 16-bit kernel at that precision */
        ok = ok && row->bits16 && strcmp(row->precision, clgemm_dtype_name(dtype)) == 0;
    failed += !ok;
    printf("%s %-34.34s %-4s %4dx%4dx%4d %s error %.2e (tolerance %.2e, %s) %s %s\n",
           ok ? "ok  " : "FAIL", algo, clgemm_dtype_name(dtype), shape.M, shape.N, shape.K,
           what, row->error, row->tolerance, row->precision,
           ok ? "" : row_status_name(row->status), row->note);
    if (row->build_log)
        printf("%s\n", row->build_log);
    run_result_free(&res);
}

static void run_case(session *s, const char *algo, clgemm_dtype dtype, gemm_shape shape,
                     bool tight, int ld_multiple, unsigned seed)
{
    run_request req = run_request_defaults();
    req.shape = shape;
    req.seed = seed;
    req.dtype = dtype;
    req.ld_multiple = tight ? ld_multiple : 32;
    req.offset = tight ? (ld_multiple > 1 ? ld_multiple : 3) : 0;
    req.alpha = tight ? -1.5f : 1.0f;
    req.beta = tight ? 0.5f : 0.0f;
    run_request_case(s, algo, req, tight ? "tight ld, offset, beta=0.5" : "padded, beta=0  ");
}

/* The eight cases of the layouts mode for one algorithm and element type (dtype: CLGEMM_F32,
 * or CLGEMM_F16 standing for both 16-bit types), or the six with a transpose
 * (transposed_only: for a form that differs from its step only there).  Case (t, l) has transposes t and layout l;
 * with a = t & 1 and b = t >> 1 the size is l ^ a, the padding l ^ b and the batch l ^ a ^ b,
 * which makes every pair of values of any two choices occur at least once.  With i = 2t + l
 * and g the group (the how-manieth algorithm and element type), the epilogue is (i + g) % 6
 * and C's type (i + (i + g) / 6 + g) % 3: all six and all three in every group, and with 11
 * or more consecutive g every pair with the others too (checked by enumeration; there are 13:
 * tensor_core takes mma's g, so that where it runs mma, as on PoCL, the two share their
 * builds instead of compiling the slowest kernels of the suite twice). */
static void run_layout_cases(session *s, const char *algo, clgemm_dtype dtype, int group,
                             bool transposed_only)
{
    static const char *const trans[] = { "NN", "NT", "TN", "TT" };
    for (int t = transposed_only ? 1 : 0; t < 4; t++)
        for (int l = 0; l < 2; l++) {
            const int a = t & 1, b = t >> 1;
            const bool padded = l ^ b, batched = l ^ a ^ b;
            run_request req = run_request_defaults();
            req.shape = layout_sizes[l ^ a];
            req.layout = l ? CLGEMM_COL_MAJOR : CLGEMM_ROW_MAJOR;
            req.op_a = (t & 2) ? CLGEMM_OP_T : CLGEMM_OP_N;
            req.op_b = (t & 1) ? CLGEMM_OP_T : CLGEMM_OP_N;
            req.ld_pad = padded ? 3 : 0;
            req.offset = padded ? 5 : 3;
            req.batch = batched ? 3 : 1;
            /* C read (beta != 0) with tight lines, C full of NaN and never read with padded */
            req.alpha = padded ? 1.0f : -1.5f;
            req.beta = padded ? 0.0f : 0.5f;
            req.dtype = dtype == CLGEMM_F32 ? CLGEMM_F32 : (t + l) % 2 ? CLGEMM_BF16 : CLGEMM_F16;
            req.seed = (uint64_t)(100 * t + 10 * l + dtype);
            const int i = 2 * t + l;
            if (group >= 0) {
                req.epilogue = (clgemm_epilogue)((i + group) % 6);
                req.c_type = (clgemm_dtype)((i + (i + group) / 6 + group) % 3);
            }
            char what[96];
            snprintf(what, sizeof what, "%s %s, ld+%d, off %d, batch %d, beta=%g, C %s, %s",
                     l ? "col" : "row", trans[t], req.ld_pad, req.offset, req.batch, req.beta,
                     clgemm_dtype_name(req.c_type), clgemm_epilogue_name(req.epilogue));
            run_request_case(s, algo, req, what);
        }
}

/* The cases of a TSTORE form (layout_tstore_forms, the f-th): rows of 8 values (16 or 32
 * bytes) at an offset of 8, and C's rows ending on 16 bytes (N = 24 row-major, M = 72
 * column-major), so that the copy engine can store C, in every epilogue, each C type twice,
 * both layouts, every transpose, a batch of 3 in half; the last case reads C (beta 0.5),
 * where the kernel's own stores run instead. */
static void run_tstore_cases(session *s, const char *form, clgemm_dtype dtype, int f)
{
    static const char *const trans[] = { "NN", "NT", "TN", "TT" };
    static const gemm_shape sizes[] = { { 37, 24, 19 }, { 72, 45, 33 } };
    for (int i = 0; i < 6; i++) {
        run_request req = run_request_defaults();
        req.shape = sizes[i % 2];
        req.layout = i % 2 ? CLGEMM_COL_MAJOR : CLGEMM_ROW_MAJOR;
        const int t = (i + f) % 4;
        req.op_a = (t & 2) ? CLGEMM_OP_T : CLGEMM_OP_N;
        req.op_b = (t & 1) ? CLGEMM_OP_T : CLGEMM_OP_N;
        req.ld_pad = -1;
        req.ld_multiple = 8;
        req.offset = 8;
        req.batch = (i + f) % 2 ? 3 : 1;
        req.alpha = -1.5f;
        req.beta = i == 5 ? 0.5f : 0.0f;
        req.dtype = dtype == CLGEMM_F32 ? CLGEMM_F32 : i % 2 ? CLGEMM_BF16 : CLGEMM_F16;
        req.seed = (uint64_t)(500 + 10 * f + i);
        req.epilogue = (clgemm_epilogue)i;
        req.c_type = (clgemm_dtype)((i + f) % 3);
        char what[96];
        snprintf(what, sizeof what, "%s %s, rows of 8, off 8, batch %d, beta=%g, C %s, %s",
                 i % 2 ? "col" : "row", trans[t], req.batch, req.beta,
                 clgemm_dtype_name(req.c_type), clgemm_epilogue_name(req.epilogue));
        run_request_case(s, form, req, what);
    }
}

/* skinny mode: one form at one size, both layouts of B, tight and NaN-padded. */
static void run_skinny_cases(session *s, const char *form, clgemm_dtype dtype, gemm_shape shape,
                             unsigned seed)
{
    for (int nt = 0; nt <= 1; nt++)
        for (int tight = 0; tight <= 1; tight++) {
            run_request req = run_request_defaults();
            req.shape = shape;
            req.dtype = dtype;
            req.op_b = nt ? CLGEMM_OP_T : CLGEMM_OP_N;
            /* tight: rows rounded to 8 values, read in place; else 3 more, holding NaN (and
             * misaligned: packed first) */
            req.ld_pad = tight ? -1 : 3;
            req.ld_multiple = 8;
            req.offset = tight ? 8 : 0;
            req.alpha = tight ? -1.5f : 1.0f;
            req.beta = tight ? 0.5f : 0.0f;
            req.seed = seed + 10u * (unsigned)nt + (unsigned)tight;
            /* the last case finishes C through the epilogue (in a split, the reduction's) */
            const bool epi = nt && tight;
            req.c_type = epi ? CLGEMM_BF16 : CLGEMM_F32;
            req.epilogue = epi ? CLGEMM_EPILOGUE_BIAS_GELU : CLGEMM_EPILOGUE_NONE;
            char what[80];
            snprintf(what, sizeof what, "%s, %s%s", nt ? "NT" : "NN",
                     tight ? "ld to 8, offset 8, beta=0.5" : "ld+3 NaN, beta=0",
                     epi ? ", bf16 C, bias_gelu" : "");
            run_request_case(s, form, req, what);
        }
}

static bool is_matrix_unit(const char *name)
{
    const clgemm_algorithm_desc *d = clgemm_find_algorithm(name);
    return d && strcmp(d->precision, "fp32") != 0;
}

static int open_session(session **s);

/* skinny mode: each form (and with `full` the extra ones) at each size and element type it
 * takes.  The matrix-unit forms run through their emulation where there is no hardware. */
static int skinny_main(bool full)
{
    session *s;
    if (open_session(&s) != 0)
        return 1;
    const size_t nforms = sizeof skinny_forms / sizeof skinny_forms[0];
    const size_t nfull = full ? sizeof skinny_full_forms / sizeof skinny_full_forms[0] : 0;
    for (size_t f = 0; f < nforms + nfull; f++) {
        const char *form = f < nforms ? skinny_forms[f] : skinny_full_forms[f - nforms];
        for (int dt = CLGEMM_F32; dt <= CLGEMM_BF16; dt++) {
            if (!clgemm_algorithm_has_dtype(form, (clgemm_dtype)dt))
                continue;
            for (size_t i = 0; i < sizeof skinny_sizes / sizeof skinny_sizes[0]; i++)
                run_skinny_cases(s, form, (clgemm_dtype)dt, skinny_sizes[i],
                                 (unsigned)(7000 + 100 * f + 10 * (size_t)dt + i));
            for (size_t i = 0; full && i < sizeof skinny_full_sizes / sizeof skinny_full_sizes[0];
                 i++)
                run_skinny_cases(s, form, (clgemm_dtype)dt, skinny_full_sizes[i],
                                 (unsigned)(9000 + 100 * f + 10 * (size_t)dt + i));
        }
    }
    session_close(s);
    printf("%d cases, %d failed\n", cases, failed);
    return failed ? 1 : 0;
}

/* The device of $CLGEMM_TEST_DEVICE (else PoCL). */
static int open_session(session **s)
{
    const char *spec = getenv("CLGEMM_TEST_DEVICE");
    if (!spec || !*spec)
        spec = "pocl";
    const clgemm_device_desc *devices;
    size_t ndevices, picked[64], npicked = 0;
    if (clgemm_devices(&devices, &ndevices) != CLGEMM_SUCCESS || ndevices > 64 ||
        clgemm_select_devices(spec, picked, &npicked) != CLGEMM_SUCCESS) {
        fprintf(stderr, "test_correctness: %s\n", clgemm_last_error());
        return -1;
    }
    printf("device: %s (%s)\n", devices[picked[0]].name, devices[picked[0]].platform_name);
    errbuf e = { "" };
    if (!(*s = session_open(picked[0], &e))) {
        fprintf(stderr, "test_correctness: %s\n", e.msg);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    mode m = argc > 1 && strcmp(argv[1], "full") == 0      ? FULL
             : argc > 1 && strcmp(argv[1], "ksweep") == 0  ? KSWEEP
             : argc > 1 && strcmp(argv[1], "quick") == 0   ? QUICK
             : argc > 1 && strncmp(argv[1], "layouts", 7) == 0 ? LAYOUTS
             : argc > 1 && strcmp(argv[1], "skinny") == 0       ? SKINNY
                                                                 : (mode)-1;
    /* layouts:K/N runs the groups g with g % N == K - 1 (CLBlast with K = 1): the shards run
     * side by side as separate tests, with the same pairing as one run of them all. */
    int shard = 1, shards = 1;
    if (m == LAYOUTS && argv[1][7] &&
        (sscanf(argv[1] + 7, ":%d/%d", &shard, &shards) != 2 || shards < 1 || shard < 1 ||
         shard > shards))
        m = (mode)-1;
    if ((int)m < 0) {
        fprintf(stderr, "usage: test_correctness quick|full|ksweep|layouts[:K/N] [ALGO...]\n"
                        "       test_correctness skinny [full]\n");
        return 2;
    }
    if (m == SKINNY)
        return skinny_main(argc > 2 && strcmp(argv[2], "full") == 0);
    /* Every algorithm of the library plus the baseline, or those named. */
    const char *algos[64];
    size_t nalgos = 0;
    for (size_t i = 0; i <= clgemm_algorithm_count(); i++) {
        const char *name = i < clgemm_algorithm_count() ? clgemm_algorithm(i)->name
                                                        : BASELINE_NAME;
        bool wanted = argc < 3;
        for (int a = 2; a < argc; a++)
            wanted = wanted || strcmp(argv[a], name) == 0;
        if (wanted && (m != KSWEEP || is_matrix_unit(name)))
            algos[nalgos++] = name;
    }
    if (argc > 2 && nalgos != (size_t)(argc - 2)) {
        fprintf(stderr, "test_correctness: unknown (or, for ksweep, not matrix-unit) "
                        "algorithm among the arguments\n");
        return 2;
    }
    unsigned only[64]; /* element types per entry of algos */
    for (size_t a = 0; a < 64; a++)
        only[a] = 7u;
    /* ksweep also runs step 10's truncating TF32 form, which has a bound of its own */
    for (size_t a = 0; m == KSWEEP && a < nalgos; a++)
        if (strcmp(algos[a], "wgmma_tma") == 0 && nalgos < 64) {
            only[nalgos] = F32_ONLY;
            algos[nalgos++] = "wgmma_tma:PACKA=0";
            break;
        }
    for (size_t v = 0; m == FULL && v < sizeof extra_variants / sizeof extra_variants[0]; v++) {
        size_t base = strcspn(extra_variants[v].spec, ":");
        bool wanted = false;
        for (size_t a = 0; a < nalgos; a++)
            wanted = wanted || (strlen(algos[a]) == base &&
                                strncmp(algos[a], extra_variants[v].spec, base) == 0);
        if (wanted && nalgos < 64) {
            only[nalgos] = extra_variants[v].dtypes;
            algos[nalgos++] = extra_variants[v].spec;
        }
    }

    session *s;
    if (open_session(&s) != 0)
        return 1;
    const gemm_shape *sizes = m == QUICK ? quick_sizes : m == FULL ? full_sizes : ksweep_sizes;
    const size_t nsizes = m == QUICK ? sizeof quick_sizes / sizeof quick_sizes[0]
                          : m == FULL ? sizeof full_sizes / sizeof full_sizes[0]
                                      : sizeof ksweep_sizes / sizeof ksweep_sizes[0];
    /* layouts: the group of each algorithm and element type (CLBlast none), mma's kept */
    int group = 0, mma_group[2] = { -1, -1 };
    for (size_t a = 0; a < nalgos; a++) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(algos[a], ":"), algos[a]);
        const clgemm_algorithm_desc *d = clgemm_find_algorithm(name);
        const bool baseline = strcmp(algos[a], BASELINE_NAME) == 0;
        if (m == LAYOUTS) {
            const bool mma = strcmp(algos[a], "mma") == 0;
            const bool shares = strcmp(algos[a], "tensor_core") == 0;
            for (int h = 0; h < 2; h++) {
                if (!(h ? !baseline && clgemm_algorithm_has_dtype(algos[a], CLGEMM_F16)
                        : baseline || clgemm_algorithm_has_dtype(algos[a], CLGEMM_F32)))
                    continue;
                int g = baseline ? -1 : shares && mma_group[h] >= 0 ? mma_group[h] : group++;
                if (mma)
                    mma_group[h] = g;
                if ((g < 0 ? 0 : g % shards) == shard - 1)
                    run_layout_cases(s, algos[a], h ? CLGEMM_F16 : CLGEMM_F32, g, false);
            }
            if (a + 1 == nalgos && argc < 3) { /* after them all: the swapped forms */
                for (size_t f = 0; f < sizeof layout_swapped_forms / sizeof *layout_swapped_forms;
                     f++)
                    for (int h = 0; h < 2; h++) {
                        const clgemm_dtype dt = h ? CLGEMM_F16 : CLGEMM_F32;
                        if (clgemm_algorithm_has_dtype(layout_swapped_forms[f], dt) &&
                            group++ % shards == shard - 1)
                            run_layout_cases(s, layout_swapped_forms[f], dt, group - 1, false);
                    }
                /* Step 7's in-place reads in shard 1 whatever the sharding, as CLBlast, and
                 * step 10's copy-engine stores (twelve builds) in shard 2 of a split run, so
                 * that the two do not load the same shard; an unsharded run has both. */
                const int g = group++;
                if (shard == 1)
                    run_layout_cases(s, layout_read_t_form, CLGEMM_F32, g, true);
                if (shard == (shards > 1 ? 2 : 1))
                    for (int f = 0; f < 2; f++)
                        run_tstore_cases(s, layout_tstore_forms[f], f ? CLGEMM_F32 : CLGEMM_F16,
                                         f);
            }
            continue;
        }
        for (int dt = CLGEMM_F32; dt <= CLGEMM_BF16; dt++) {
            const clgemm_dtype dtype = (clgemm_dtype)dt;
            /* the baseline and the fp32 steps on fp32 data; 16-bit data on 16-bit kernels */
            if (baseline ? dtype != CLGEMM_F32 : !clgemm_algorithm_has_dtype(algos[a], dtype))
                continue;
            if (!(only[a] & (1u << dt)))
                continue;
            const int ld = dtype != CLGEMM_F32 ? 8 : d ? d->ld_multiple : 1;
            const bool bits16 = dtype != CLGEMM_F32;
            const gemm_shape *list = bits16 && m == FULL ? sizes16 : sizes;
            const size_t n = bits16 && m == FULL ? sizeof sizes16 / sizeof sizes16[0] : nsizes;
            for (size_t i = 0; i < n; i++)
                for (int tight = m == KSWEEP; tight <= 1; tight++)
                    run_case(s, algos[a], dtype, list[i], tight, ld,
                             (unsigned)(1000 * (dt + 1) + i));
        }
    }
    session_close(s);
    printf("%d cases, %d failed\n", cases, failed);
    return failed ? 1 : 0;
}
