/* test_correctness's skinny mode (usage in test_correctness.c): small M and long K, step 11's
 * forms and forced split counts (SPLITK) on several kernels, each at every size and element
 * type it takes, B stored both ways, tight and NaN-padded; `skinny full` adds more forms and
 * sizes. */
#include <stdio.h>

#include "clgemm.h"
#include "test_correctness.h"

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

/* skinny mode: each form (and with `full` the extra ones) at each size and element type it
 * takes.  The matrix-unit forms run through their emulation where there is no hardware. */
int skinny_main(bool full)
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
