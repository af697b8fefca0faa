/* Step 2: global memory coalescing.
 *
 * The arithmetic is exactly step 1's; only the mapping of work-items onto C
 * changes.  Dimension 0 now walks the COLUMNS of C, so the 32 work-items of a
 * warp own 32 neighbouring elements of one row.  At every k they read 32
 * consecutive floats of B, which the hardware serves as one 128-byte
 * transaction instead of 32, and a single float of A, which is broadcast; the
 * final stores to C form one contiguous burst as well.  Same FLOPs, a small
 * fraction of the memory transactions.  What remains wasteful is that every
 * work-item still fetches its operands itself: an 8 x 32 work-group reads each
 * element of B 8 times and each element of A 32 times, and only the caches
 * stand between that and DRAM.
 *
 * Its speed beside CLBlast and cuBLAS: docs/results.md, row "coalescing".
 */

/* BM x BN is the block of C one work-group covers: BN work-items along a row (dimension 0,
 * keep it a multiple of the 32-wide warp) times BM rows, one element each. */
#ifndef BM
#define BM 8
#endif
#ifndef BN
#define BN 32
#endif

/* Step 1's element, unchanged. */
#include "01_naive.cl"

__kernel void gemm_coalescing(const int M, const int N, const int K, const float alpha,
                              __global const float *restrict A, const int offA, const int lda,
                              __global const float *restrict B, const int offB, const int ldb,
                              const float beta,
                              __global gemm_c_t *restrict C, const int offC, const int ldc,
                              __global const gemm_c_t *restrict bias, const int offBias,
                              const int strideA, const int strideB, const int strideC)
{
    GEMM_BATCH_ENTRY(A, B, C);
    GEMM_BIAS_MOVE(0, 0);
    /* neighbours differ in column: coalesced */
    gemm_one_element(get_global_id(1), get_global_id(0), M, N, K, alpha, A, offA, lda, B, offB,
                     ldb, beta, C, offC, ldc, bias);
}
