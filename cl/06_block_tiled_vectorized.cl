#include "common.h"

/* Step 6: vectorised block tiling.
 *
 * Same 2-D register tile as step 5, moved with wider instructions.  Global
 * loads of A and B and the stores to C are float4: one 128-bit instruction
 * where step 5 issued four, so fewer instructions wait in the load/store
 * queues for the same bytes.  In local memory A is now stored transposed,
 * As[k][m]: the TM values of A a work-item needs at step k become consecutive
 * and arrive as float4 loads, like B's.  The inner loop issues (TM+TN)/4 local
 * loads for TM*TN FMAs (4 for 64 at 8 x 8, against 16 in step 5).
 *
 * The transposition happens on the way into local memory: each work-item
 * scatters its float4 of A down a column of As.  Rows of As are padded by 4
 * floats so that these scattered stores of a warp fall into different banks,
 * while every row still starts 16-byte aligned for the float4 reads.
 *
 * Work-items own every (BM/TM)-th group of 4 rows and every (BN/TN)-th group of
 * 4 columns, so neighbouring work-items read neighbouring float4s of the tiles
 * (conflict-free) and store neighbouring float4s of C (coalesced).
 *
 * Requires offA, offB, offC, lda, ldb and ldc to be multiples of 4 so that the
 * float4 accesses are aligned; M, N and K are arbitrary.  Past column N (or K)
 * a row may hold padding with any contents: edge tiles never read it.
 *
 * Its speed beside CLBlast and cuBLAS: docs/results.md, row "block_tiled_vectorized".
 */

/* BM x BN: the block of C per work-group.  BK: the K slice held in local
 * memory.  TM x TN: the results per work-item (multiples of VEC).  VEC: the
 * vector width, fixed at 4 (float4).  The work-group is (BN/TN) x (BM/TM). */
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 16 /* twice step 5's slice: half the barriers per k, measured ~4% faster */
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef VEC
#define VEC 4
#endif

#if VEC != 4
#error "gemm_block_tiled_vectorized is written for float4: VEC must be 4"
#endif
#if TM % 4 != 0 || TN % 4 != 0 || BK % 4 != 0
#error "gemm_block_tiled_vectorized: TM, TN and BK must be multiples of 4"
#endif
#if BM % TM != 0 || BN % TN != 0
#error "gemm_block_tiled_vectorized: BM must be a multiple of TM and BN of TN"
#endif

#define BV_TX (BN / TN)               /* work-items along dimension 0 (columns) */
#define BV_TY (BM / TM)               /* work-items along dimension 1 (rows) */
#define BV_THREADS (BV_TX * BV_TY)
#define BV_PAD 4                      /* floats of padding per row of As */
#define BV_AS_ROW (BM + BV_PAD)       /* floats per row of the transposed A tile */

#if (BM * BK / 4) % BV_THREADS != 0 || (BK * BN / 4) % BV_THREADS != 0
#error "gemm_block_tiled_vectorized: BM*BK/4 and BK*BN/4 must be multiples of the work-group size"
#endif

/* Four consecutive floats starting at p, 16-byte aligned.  Unguarded, that is
 * one 128-bit load.  Guarded, only the first `valid` of them exist (valid may
 * be anything, <= 0 included) and the rest read as zero; a vector that lies
 * entirely inside the matrix still goes out as one load. */
inline float4 bv_load4(__global const float *p, const int valid, const bool guarded)
{
    if (!guarded || valid >= 4)
        return *(__global const float4 *)p;
    return (float4)(valid > 0 ? p[0] : 0.0f,
                    valid > 1 ? p[1] : 0.0f,
                    valid > 2 ? p[2] : 0.0f,
                    0.0f);
}

/* Copy the BM x BK slice of A into As transposed, and the BK x BN slice of B
 * into Bs as is, one float4 of global memory at a time.  Vector e goes to
 * work-item e % BV_THREADS, so neighbours read neighbouring addresses.
 * `guarded` is a literal at every call site. */
inline void bv_load_tiles(__local float *As, __local float4 *Bs,
                          __global const float *A, const int lda,
                          __global const float *B, const int ldb,
                          const int rows_left, const int cols_left, const int k_left,
                          const int tid, const bool guarded)
{
#pragma unroll
    for (int i = 0; i < BM * BK / 4 / BV_THREADS; ++i) {
        const int e = tid + i * BV_THREADS;
        const int r = e / (BK / 4), k = (e % (BK / 4)) * 4;
        const float4 v = bv_load4(A + r * lda + k, r < rows_left ? k_left - k : 0, guarded);
        As[(k + 0) * BV_AS_ROW + r] = v.x;
        As[(k + 1) * BV_AS_ROW + r] = v.y;
        As[(k + 2) * BV_AS_ROW + r] = v.z;
        As[(k + 3) * BV_AS_ROW + r] = v.w;
    }
#pragma unroll
    for (int i = 0; i < BK * BN / 4 / BV_THREADS; ++i) {
        const int e = tid + i * BV_THREADS;
        const int k = e / (BN / 4), c = (e % (BN / 4)) * 4;
        Bs[e] = bv_load4(B + k * ldb + c, k < k_left ? cols_left - c : 0, guarded);
    }
}

__kernel __attribute__((reqd_work_group_size(BV_TX, BV_TY, 1)))
void gemm_block_tiled_vectorized(const int M, const int N, const int K, const float alpha,
                                 __global const float *restrict A, const int offA, const int lda,
                                 __global const float *restrict B, const int offB, const int ldb,
                                 const float beta,
                                 __global gemm_c_t *restrict C, const int offC, const int ldc,
                                 __global const gemm_c_t *restrict bias, const int offBias,
                                 const int strideA, const int strideB, const int strideC)
{
    GEMM_BATCH_ENTRY(A, B, C);
    /* Declared as float4 so that both tiles are 16-byte aligned. */
    __local float4 As4[BK][BV_AS_ROW / 4];   /* As4[k][m/4] = A(m .. m+3, k) */
    __local float4 Bs4[BK][BN / 4];          /* Bs4[k][n/4] = B(k, n .. n+3) */

    const int tx = get_local_id(0), ty = get_local_id(1);
    const int tid = ty * BV_TX + tx;

    /* From here on, rows and columns count from this group's corner of C. */
    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
    const int rows_left = M - row0, cols_left = N - col0;
    A += offA + row0 * lda;
    B += offB + col0;
    GEMM_C_MOVE(row0, col0);
    GEMM_BIAS_MOVE(row0, col0);

    const bool edge = rows_left < BM || cols_left < BN;   /* decided once per group */

    /* This work-item owns rows 4*(ty + i*BV_TY) + 0..3 for i < TM/4 and
     * columns 4*(tx + j*BV_TX) + 0..3 for j < TN/4. */
    float4 acc[TM][TN / 4];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN / 4; ++j)
            acc[i][j] = (float4)(0.0f);

    for (int k0 = 0; k0 < K; k0 += BK) {
        if (edge || K - k0 < BK)
            bv_load_tiles((__local float *)As4, &Bs4[0][0], A + k0, lda, B + k0 * ldb, ldb,
                          rows_left, cols_left, K - k0, tid, true);
        else
            bv_load_tiles((__local float *)As4, &Bs4[0][0], A + k0, lda, B + k0 * ldb, ldb,
                          BM, BN, BK, tid, false);
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM];
            float4 b[TN / 4];
#pragma unroll
            for (int i = 0; i < TM / 4; ++i) {
                const float4 v = As4[k][ty + i * BV_TY];
                a[4 * i + 0] = v.x;
                a[4 * i + 1] = v.y;
                a[4 * i + 2] = v.z;
                a[4 * i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < TN / 4; ++j)
                b[j] = Bs4[k][tx + j * BV_TX];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN / 4; ++j)
                    acc[i][j] = fma((float4)(a[i]), b[j], acc[i][j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = 4 * (ty + (i / 4) * BV_TY) + i % 4;
#pragma unroll
        for (int j = 0; j < TN / 4; ++j) {
            const int c = 4 * (tx + j * BV_TX);
            if (!edge)
                gemm_store4(C, ldc, bias, r, c, acc[i][j], alpha, beta, 4, false);
            else if (r < rows_left)
                gemm_store4(C, ldc, bias, r, c, acc[i][j], alpha, beta, cols_left - c, true);
        }
    }
}
