#include "common.h"

/* Step 3: tiling in local memory.
 *
 * In step 2 a work-group of BM x BN work-items asks global memory for every A
 * element BN times and every B element BM times.  Here the group first copies
 * a BM x BK slice of A and a BK x BN slice of B into local memory (on-chip
 * shared memory), each element fetched from global memory exactly once and
 * with coalesced reads, and then every work-item runs its part of the dot
 * product out of that copy.  Global traffic falls by a factor of about BM
 * (= BN); the price is two barriers per K slice.  The inner loop still does
 * two local-memory loads per FMA, which is what step 4 goes after.
 *
 * Edges: a group whose BM x BN block lies inside C, working on a full K
 * slice, copies its tiles with plain loads.  Only groups on the right or bottom
 * border, and the ragged last K slice, use the guarded copy that writes zeros
 * for anything outside the matrices (zeros add nothing to a dot product).
 *
 * Its speed beside CLBlast and cuBLAS: docs/results.md, row "tiled".
 */

#ifndef BM
#define BM 32
#endif
#ifndef BN
#define BN 32
#endif
#ifndef BK
#define BK 32
#endif
#ifndef TM
#define TM 1
#endif
#ifndef TN
#define TN 1
#endif

#if TM != 1 || TN != 1
#error "gemm_tiled computes one element of C per work-item: TM and TN must be 1"
#endif

#define TILED_THREADS (BM * BN)   /* work-items per group, one per element of C */

#if (BM * BK) % TILED_THREADS != 0 || (BK * BN) % TILED_THREADS != 0
#error "gemm_tiled: BM*BK and BK*BN must be multiples of BM*BN (every work-item copies a whole share)"
#endif

__kernel __attribute__((reqd_work_group_size(BN, BM, 1)))
void gemm_tiled(const int M, const int N, const int K, const float alpha,
                __global const float *restrict A, const int offA, const int lda,
                __global const float *restrict B, const int offB, const int ldb,
                const float beta,
                __global gemm_c_t *restrict C, const int offC, const int ldc,
                __global const gemm_c_t *restrict bias, const int offBias,
                const int strideA, const int strideB, const int strideC)
{
    __local float As[BM][BK];
    __local float Bs[BK][BN];
    GEMM_GROUP_BLOCK(BM, BN);

    const int tx = get_local_id(0), ty = get_local_id(1);
    const int tid = ty * BN + tx;

    const bool edge = rows_left < BM || cols_left < BN;   /* decided once per group */

    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (edge || K - k0 < BK) {
            tile_to_local(&As[0][0], A + k0, lda, BM, BK, rows_left, K - k0,
                          tid, TILED_THREADS, true);
            tile_to_local(&Bs[0][0], B + k0 * ldb, ldb, BK, BN, K - k0, cols_left,
                          tid, TILED_THREADS, true);
        } else {
            tile_to_local(&As[0][0], A + k0, lda, BM, BK, BM, BK, tid, TILED_THREADS, false);
            tile_to_local(&Bs[0][0], B + k0 * ldb, ldb, BK, BN, BK, BN,
                          tid, TILED_THREADS, false);
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* the tiles are complete */

        /* As[ty][k] is the same address for a whole warp (a broadcast) and
         * Bs[k][tx] walks consecutive banks: no bank conflicts. */
#pragma unroll
        for (int k = 0; k < BK; ++k)
            acc = fma(As[ty][k], Bs[k][tx], acc);

        barrier(CLK_LOCAL_MEM_FENCE);   /* everyone is done before they are overwritten */
    }

    if (!edge || (ty < rows_left && tx < cols_left))
        gemm_store1(C, ldc, bias, ty, tx, acc, alpha, beta);
}
