#include "common.h"

/* Step 1: naive.
 *
 * One work-item per element of C, each running its whole dot product straight
 * out of global memory.  It is correct and nothing more.  Dimension 0 of the
 * NDRange walks the ROWS of C, so the 32 work-items of a warp sit in 32
 * different rows: at every k they read 32 floats of A that are lda apart (32
 * separate memory transactions for 128 useful bytes) and at the end they write
 * 32 floats of C that are ldc apart.  Only B is cheap, since the whole warp
 * wants the same element (a broadcast).  Nothing is reused from anything
 * faster than the caches: two global loads per FMA.
 *
 * Its speed beside CLBlast and cuBLAS: docs/results.md, row "naive".
 */

/* BM x BN is the block of C one work-group covers; the host derives the
 * work-group shape (BM, BN) from it: one work-item per element. */
#ifndef BM
#define BM 16
#endif
#ifndef BN
#define BN 16
#endif

/* One element of C: row `row` of A times column `col` of B.  Step 2 computes exactly this
 * too; it changes only which work-item gets which (row, col). */
inline void gemm_one_element(const int row, const int col, const int M, const int N,
                             const int K, const float alpha, __global const float *restrict A,
                             const int offA, const int lda, __global const float *restrict B,
                             const int offB, const int ldb, const float beta,
                             __global gemm_c_t *restrict C, const int offC, const int ldc,
                             __global const gemm_c_t *restrict bias)
{
    /* The NDRange is rounded up to whole work-groups. */
    if (row >= M || col >= N)
        return;

    __global const float *a = A + offA + row * lda;
    __global const float *b = B + offB + col;

    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc = fma(a[k], b[k * ldb], acc);

    gemm_store1(C + offC, ldc, bias, row, col, acc, alpha, beta);
}

__kernel void gemm_naive(const int M, const int N, const int K, const float alpha,
                         __global const float *restrict A, const int offA, const int lda,
                         __global const float *restrict B, const int offB, const int ldb,
                         const float beta,
                         __global gemm_c_t *restrict C, const int offC, const int ldc,
                         __global const gemm_c_t *restrict bias, const int offBias,
                         const int strideA, const int strideB, const int strideC)
{
    GEMM_BATCH_ENTRY(A, B, C);
    GEMM_BIAS_MOVE(0, 0);
    /* neighbours differ in row: the slow choice */
    gemm_one_element(get_global_id(0), get_global_id(1), M, N, K, alpha, A, offA, lda, B, offB,
                     ldb, beta, C, offC, ldc, bias);
}
