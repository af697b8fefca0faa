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
 *           with a bf16 C and bias_gelu; `skinny full` adds more forms and sizes
 *
 * This file has the usage and the quick, full and ksweep modes; the layouts mode is in
 * test_correctness_layouts.c, the skinny mode in test_correctness_skinny.c, and running one
 * case (and opening the device) in test_correctness_case.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "test_correctness.h"

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

typedef enum { QUICK, FULL, KSWEEP, LAYOUTS, SKINNY } mode;

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

static bool is_matrix_unit(const char *name)
{
    const clgemm_algorithm_desc *d = clgemm_find_algorithm(name);
    return d && strcmp(d->precision, "fp32") != 0;
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
    /* layouts: a loop of its own over the same algorithms (test_correctness_layouts.c) */
    if (m == LAYOUTS)
        layouts_cases(s, algos, nalgos, shard, shards, argc < 3);
    for (size_t a = 0; m != LAYOUTS && a < nalgos; a++) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(algos[a], ":"), algos[a]);
        const clgemm_algorithm_desc *d = clgemm_find_algorithm(name);
        const bool baseline = strcmp(algos[a], BASELINE_NAME) == 0;
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
