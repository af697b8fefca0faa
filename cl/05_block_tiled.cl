#include "common.h"

/* Step 5: 2-D block tiling.
 *
 * Step 4 reuses each B value TM times but still needs a local-memory load of A
 * for every FMA.  Now each work-item owns a TM x TN block of C: at every k it
 * loads TM values of A and TN values of B into registers and performs all
 * TM * TN FMAs between them (an outer product).  Local loads per FMA fall from
 * (TM+1)/TM to (TM+TN)/(TM*TN), a quarter at 8 x 8, and with a 128 x 128 block
 * per group each element fetched from global memory serves 128 outputs.  The
 * accumulators live in registers (64 of them), which is affordable because a
 * group is only 256 work-items.
 *
 * A work-item's rows and columns are not contiguous: it owns every
 * (BM/TM)-th row and every (BN/TN)-th column of the block.  Neighbouring
 * work-items then read neighbouring words of the local tiles (different
 * banks, so no conflicts) and write neighbouring addresses of C (coalesced
 * stores).  With contiguous 8-wide blocks, work-items 8 floats apart would
 * hit the same banks and serialise.
 *
 * Its speed beside CLBlast and cuBLAS: docs/results.md, row "block_tiled".
 */

/* BM x BN: the block of C per work-group.  BK: the K slice held in local
 * memory.  TM x TN: the results per work-item.  The work-group is
 * (BN/TN) x (BM/TM) work-items. */
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif

#if BM % TM != 0 || BN % TN != 0
#error "gemm_block_tiled: BM must be a multiple of TM and BN of TN"
#endif

#define BT_TX (BN / TN)               /* work-items along dimension 0 (columns) */
#define BT_TY (BM / TM)               /* work-items along dimension 1 (rows) */
#define BT_THREADS (BT_TX * BT_TY)

#if (BM * BK) % BT_THREADS != 0 || (BK * BN) % BT_THREADS != 0
#error "gemm_block_tiled: BM*BK and BK*BN must be multiples of the work-group size (BN/TN)*(BM/TM)"
#endif

__kernel __attribute__((reqd_work_group_size(BT_TX, BT_TY, 1)))
void gemm_block_tiled(const int M, const int N, const int K, const float alpha,
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
    const int tid = ty * BT_TX + tx;

    const bool edge = rows_left < BM || cols_left < BN;   /* decided once per group */

    /* This work-item owns rows ty + i*BT_TY and columns tx + j*BT_TX. */
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        if (edge || K - k0 < BK) {
            tile_to_local(&As[0][0], A + k0, lda, BM, BK, rows_left, K - k0,
                          tid, BT_THREADS, true);
            tile_to_local(&Bs[0][0], B + k0 * ldb, ldb, BK, BN, K - k0, cols_left,
                          tid, BT_THREADS, true);
        } else {
            tile_to_local(&As[0][0], A + k0, lda, BM, BK, BM, BK, tid, BT_THREADS, false);
            tile_to_local(&Bs[0][0], B + k0 * ldb, ldb, BK, BN, BK, BN, tid, BT_THREADS, false);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = As[ty + i * BT_TY][k];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[k][tx + j * BT_TX];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = ty + i * BT_TY;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int c = tx + j * BT_TX;
            if (!edge || (r < rows_left && c < cols_left))
                gemm_store1(C, ldc, bias, r, c, acc[i][j], alpha, beta);
        }
    }
}
