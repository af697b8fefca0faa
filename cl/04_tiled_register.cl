#include "common.h"

/* Step 4: 1-D register tiling.
 *
 * Step 3 spends two local-memory loads on every FMA, so it runs at the speed
 * of local memory, not of the arithmetic units.  Here each work-item computes
 * TM results down one column of C.  At every k it loads one value of B into a
 * register and reuses it TM times, against TM values of A that are the same
 * for the whole warp (broadcasts of one contiguous row of the tile, which the
 * compiler can fetch several k at a time).  The group needs TM times fewer
 * work-items for the same block of C, so the block can grow (64 x 64) while
 * the K slice shrinks (BK = 8): each element fetched from global memory now
 * serves 64 outputs, and the tiles take 4 KiB of local memory instead of 8.
 *
 * Its speed beside CLBlast and cuBLAS: docs/results.md, row "tiled_register".
 */

/* BM x BN: the block of C per work-group.  BK: the K slice held in local
 * memory.  TM: rows of C per work-item (one column each, so TN must be 1).
 * The work-group is BN x (BM/TM) work-items. */
#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 64
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 1
#endif

#if TN != 1
#error "gemm_tiled_register computes a column of TM results per work-item: TN must be 1"
#endif
#if BM % TM != 0
#error "gemm_tiled_register: BM must be a multiple of TM"
#endif

#define TREG_THREADS (BN * (BM / TM))   /* work-items per group */

#if (BM * BK) % TREG_THREADS != 0 || (BK * BN) % TREG_THREADS != 0
#error "gemm_tiled_register: BM*BK and BK*BN must be multiples of the work-group size BN*BM/TM"
#endif

__kernel __attribute__((reqd_work_group_size(BN, BM / TM, 1)))
void gemm_tiled_register(const int M, const int N, const int K, const float alpha,
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

    /* This work-item owns rows ty*TM .. ty*TM+TM-1 of column tx. */
    float acc[TM];
#pragma unroll
    for (int i = 0; i < TM; ++i)
        acc[i] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        if (edge || K - k0 < BK) {
            tile_to_local(&As[0][0], A + k0, lda, BM, BK, rows_left, K - k0,
                          tid, TREG_THREADS, true);
            tile_to_local(&Bs[0][0], B + k0 * ldb, ldb, BK, BN, K - k0, cols_left,
                          tid, TREG_THREADS, true);
        } else {
            tile_to_local(&As[0][0], A + k0, lda, BM, BK, BM, BK, tid, TREG_THREADS, false);
            tile_to_local(&Bs[0][0], B + k0 * ldb, ldb, BK, BN, BK, BN,
                          tid, TREG_THREADS, false);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float b = Bs[k][tx];   /* one load, TM uses */
#pragma unroll
            for (int i = 0; i < TM; ++i)
                acc[i] = fma(As[ty * TM + i][k], b, acc[i]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* For each i the warp stores consecutive columns of one row: coalesced. */
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = ty * TM + i;
        if (!edge || (r < rows_left && tx < cols_left))
            gemm_store1(C, ldc, bias, r, tx, acc[i], alpha, beta);
    }
}
