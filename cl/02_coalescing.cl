#include "common.h"

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

/* BM x BN is the block of C one work-group covers: BN/TN work-items along a row
 * (dimension 0, keep it a multiple of the 32-wide warp) times BM/TM rows.  Each
 * work-item computes one element, so TM and TN must stay 1. */
#ifndef BM
#define BM 8
#endif
#ifndef BN
#define BN 32
#endif
#ifndef TM
#define TM 1
#endif
#ifndef TN
#define TN 1
#endif

#if TM != 1 || TN != 1
#error "gemm_coalescing computes one element of C per work-item: TM and TN must be 1"
#endif

__kernel void gemm_coalescing(const int M, const int N, const int K, const float alpha,
                              __global const float *restrict A, const int offA, const int lda,
                              __global const float *restrict B, const int offB, const int ldb,
                              const float beta,
                              __global float *restrict C, const int offC, const int ldc)
{
    const int col = get_global_id(0);   /* neighbours differ in column: coalesced */
    const int row = get_global_id(1);

    /* The NDRange is rounded up to whole work-groups. */
    if (row >= M || col >= N)
        return;

    __global const float *a = A + offA + row * lda;
    __global const float *b = B + offB + col;

    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc = fma(a[k], b[k * ldb], acc);

    __global float *c = C + offC + row * ldc + col;
    *c = gemm_epilogue(acc, alpha, beta, c);
}
