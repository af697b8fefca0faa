#include "common.h"

/* Step 7, fed asynchronously: every operand read as it is stored, and nothing transposed.
 *
 * Step 7 moves each K slice global -> registers -> local memory, and on the way it transposes
 * every operand whose k is contiguous (A, and the B^T of every X W^T) so that its inner loop
 * can read float4s along M and N.  That costs twice:
 *   - the registers that hold the next slice count against step 7's 128;
 *   - a k-contiguous slice BK = 8 values deep is 32 bytes of each of 16 rows per warp load:
 *     16 cache lines per instruction where a row of B gives 4, and with both operands so (X W^T)
 *     step 7 runs a fifth slower than with a plain B (docs/steps_1_7.md).
 * What changes here:
 *
 *  1. cp.async (NVIDIA sm_80 and later) copies 16 bytes from global to local memory without
 *     passing through registers, so STAGES slices are in flight at no register cost and a
 *     slice can be BK = 32 values deep: 128 bytes, one whole line, of each row.
 *
 *  2. Each operand keeps its stored layout in local memory.  A k-contiguous tile (A, B^T)
 *     holds rows of BK values, padded by one float4 so that eight consecutive rows start in
 *     eight different bank quads; B stored K x N holds rows of BN values, as step 7's.
 *
 *  3. The inner loop takes four k at a time.  A work-item reads one float4 of each of its TM
 *     rows of A (four k of one row) and, for B^T, one float4 of each of its TN columns; it then
 *     has the operands of 4 x TM x TN products.  That is TM + TN loads of 16 bytes per
 *     4 * TM * TN FMAs, exactly step 7's ratio, and no stores to local memory at all except
 *     the copies.  B^T's columns are taken four at a time so that 32 + 16 floats of operands
 *     and 64 sums fit the register budget.
 *
 * A work-item owns rows wm0 + lm + i * (WM / TM) (i < TM): interleaved, so that the lanes of
 * a warp read consecutive rows (distinct bank quads) or the same row (broadcast).  Columns
 * likewise for B^T; for a plain B, blocks of four as in step 7.  A stored K x M is packed by
 * the host (the layout pre-pass); B stored either way is read in place (GEMM_TRANS_B).
 * Elsewhere than NVIDIA the same kernel copies with plain loads and stores (WA_ASYNC 0).
 * Requires offsets and leading dimensions of A and B that are multiples of 4; M, N, K any. */

/* Parameters (all overridable with -D):
 *   BM x BN  the block of C per work-group
 *   BK       the K slice per stage (multiple of 8: its padded rows stay an odd number of
 *            float4s)
 *   TM x TN  the results per work-item (multiples of 4)
 *   WM x WN  the block of C per warp; (WM/TM) * (WN/TN) must be WARP
 *   STAGES   slices resident in local memory (2 or more)
 *   RP       rows of A whose operands are held at once (a divisor of TM): fewer registers,
 *            for B's operands read TM / RP times
 *   KU       steps of four k unrolled together: unrolled further, the compiler loads several
 *            steps ahead and passes the 128 registers at which two groups share an SM
 *   WA_ASYNC 1: cp.async (set by the host for NVIDIA sm_80+); 0: plain copies */
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 32
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef WM
#define WM 32
#endif
#ifndef WN
#define WN 64
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef KU
#define KU 1
#endif
#ifndef RP
#define RP TM
#endif
#ifndef WARP
#define WARP 32
#endif
#ifndef WA_ASYNC
#define WA_ASYNC 0
#endif

#define WA_TX (BN / TN) /* work-items along dimension 0 */
#define WA_TY (BM / TM) /* work-items along dimension 1 */
#define WA_THREADS (WA_TX * WA_TY)
#define WA_WTM (WM / TM) /* a warp's work-items along M */
#define WA_WTN (WN / TN) /* a warp's work-items along N */
#define WA_WARPS_N (BN / WN)
#define WA_KROW (BK / 4 + 1) /* float4s per padded row of a k-contiguous tile */
#define WA_A_TILE (BM * WA_KROW)
#if GEMM_TRANS_B
#define WA_B_TILE (BN * WA_KROW)
#else
#define WA_B_TILE (BK * BN / 4)
#endif

#if TM % 4 != 0 || TN % 4 != 0 || BK % 8 != 0 || TM % RP != 0
#error "gemm_warp_tiled_async: TM and TN must be multiples of 4, BK of 8"
#endif
#if BM % WM != 0 || BN % WN != 0 || WM % TM != 0 || WN % TN != 0 || WA_WTM * WA_WTN != WARP
#error "gemm_warp_tiled_async: warp tiles must cut the block and hold one warp each"
#endif
#if (BM * BK / 4) % WA_THREADS != 0 || (BN * BK / 4) % WA_THREADS != 0
#error "gemm_warp_tiled_async: a slice must be whole float4s per work-item"
#endif
#if GEMM_TRANS_A
#error "gemm_warp_tiled_async reads A stored M x K only (the host packs a transposed A)"
#endif
#if STAGES < 2
#error "gemm_warp_tiled_async: STAGES must be at least 2"
#endif

/* Copy `bytes` (0 .. 16) from src to dst and zeros after them.  src must be a valid,
 * 16-byte aligned address even where bytes is 0. */
#if WA_ASYNC
inline void wa_copy(__local float4 *dst, __global const float *src, const int bytes)
{
    /* A __local pointer's value is its local-memory state-space address. */
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
                 :: "r"((uint)(size_t)dst), "l"((ulong)src), "r"(bytes) : "memory");
}
#define WA_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
#define WA_WAIT_(n) asm volatile("cp.async.wait_group " #n ";" ::: "memory")
#define WA_WAIT(n) WA_WAIT_(n)
#else
inline void wa_copy(__local float4 *dst, __global const float *src, const int bytes)
{
    if (bytes == 16) {
        *dst = *(__global const float4 *)src;
        return;
    }
    const int n = bytes / 4;
    *dst = (float4)(n > 0 ? src[0] : 0.0f, n > 1 ? src[1] : 0.0f, n > 2 ? src[2] : 0.0f, 0.0f);
}
#define WA_COMMIT() ((void)0)
#define WA_WAIT(n) ((void)0)
#endif

/* A k-contiguous slice: W rows (w_left of them exist) of BK values from P, rows ld apart,
 * k_left values of each row left in the matrix.  Float4 q of the slice goes to row q / (BK/4):
 * a warp copies four whole rows of 128 bytes (BK 32). */
inline void wa_issue_kc(__local float4 *tile, __global const float *P, const int ld,
                        const int W, const int w_left, const int k_left, const int tid)
{
#pragma unroll
    for (int q = tid; q < W * (BK / 4); q += WA_THREADS) {
        const int row = q / (BK / 4), kq = q % (BK / 4);
        const int valid = min(k_left - 4 * kq, 4);
        const bool in = row < w_left && valid > 0;
        wa_copy(tile + row * WA_KROW + kq, in ? P + row * ld + 4 * kq : P, in ? 4 * valid : 0);
    }
}

/* B stored K x N: BK rows (k_left exist) of BN values (n_left exist). */
inline void wa_issue_nc(__local float4 *tile, __global const float *P, const int ld,
                        const int n_left, const int k_left, const int tid)
{
#pragma unroll
    for (int q = tid; q < BK * (BN / 4); q += WA_THREADS) {
        const int k = q / (BN / 4), nq = q % (BN / 4);
        const int valid = min(n_left - 4 * nq, 4);
        const bool in = k < k_left && valid > 0;
        wa_copy(tile + q, in ? P + k * ld + 4 * nq : P, in ? 4 * valid : 0);
    }
}

#define WA_PRAGMA(x) _Pragma(#x)
#define WA_UNROLL(n) WA_PRAGMA(unroll n)

/* acc += the dot product of four k: a's and b's lanes, in k order. */
#define WA_DOT4(acc, a, b) (acc) = fma((a).w, (b).w, fma((a).z, (b).z, fma((a).y, (b).y, fma((a).x, (b).x, (acc)))))

__kernel __attribute__((reqd_work_group_size(WA_TX, WA_TY, 1)))
void gemm_warp_tiled_async(const int M, const int N, const int K, const float alpha,
                           __global const float *restrict A, const int offA, const int lda,
                           __global const float *restrict B, const int offB, const int ldb,
                           const float beta,
                           __global gemm_c_t *restrict C, const int offC, const int ldc,
                           __global const gemm_c_t *restrict bias, const int offBias,
                           const int strideA, const int strideB, const int strideC)
{
    GEMM_BATCH_ENTRY(A, B, C);
    __local float4 As[STAGES * WA_A_TILE];
    __local float4 Bs[STAGES * WA_B_TILE];

    const int tid = get_local_id(1) * WA_TX + get_local_id(0);
    const int warp = tid / WARP, lane = tid % WARP;
    const int wm0 = (warp / WA_WARPS_N) * WM, wn0 = (warp % WA_WARPS_N) * WN;
    const int lm = lane / WA_WTN, ln = lane % WA_WTN;

    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
    const int rows_left = M - row0, cols_left = N - col0;
    A += offA + row0 * lda;
    B += offB + (GEMM_TRANS_B ? col0 * ldb : col0);
    GEMM_C_MOVE(row0, col0);
    GEMM_BIAS_MOVE(row0, col0);

    float4 acc[TM][TN / 4];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN / 4; ++j)
            acc[i][j] = (float4)(0.0f);

    /* Slice kt into stage s. */
#if GEMM_TRANS_B
#define WA_ISSUE(s, kt)                                                                      \
    do {                                                                                     \
        const int k0_ = (kt) * BK;                                                           \
        wa_issue_kc(As + (s) * WA_A_TILE, A + k0_, lda, BM, rows_left, K - k0_, tid);   \
        wa_issue_kc(Bs + (s) * WA_B_TILE, B + k0_, ldb, BN, cols_left, K - k0_, tid);        \
    } while (0)
#else
#define WA_ISSUE(s, kt)                                                                      \
    do {                                                                                     \
        const int k0_ = (kt) * BK;                                                           \
        wa_issue_kc(As + (s) * WA_A_TILE, A + k0_, lda, BM, rows_left, K - k0_, tid);   \
        wa_issue_nc(Bs + (s) * WA_B_TILE, B + k0_ * ldb, ldb, cols_left, K - k0_, tid);      \
    } while (0)
#endif

    /* The pipeline: STAGES - 1 slices in flight before the first product; each step waits
     * for the oldest, and once every work-item is past the barrier (done with the stage
     * computed last), refills that stage with the slice STAGES - 1 ahead.  A group is
     * committed every step, empty or not, so that "all but the newest STAGES - 2" always
     * names the slice about to be read. */
    const int nk = (K + BK - 1) / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < nk)
            WA_ISSUE(s, s);
        WA_COMMIT();
    }
    for (int kt = 0; kt < nk; ++kt) {
        WA_WAIT(STAGES - 2);
        barrier(CLK_LOCAL_MEM_FENCE);
        const int kn = kt + STAGES - 1;
        if (kn < nk)
            WA_ISSUE(kn % STAGES, kn);
        WA_COMMIT();

        const int s = kt % STAGES;
        __local const float4 *as = As + s * WA_A_TILE + (wm0 + lm) * WA_KROW;
#if GEMM_TRANS_B
        __local const float4 *bs = Bs + s * WA_B_TILE + (wn0 + ln) * WA_KROW;
#else
        __local const float4 *bs = Bs + s * WA_B_TILE + wn0 / 4 + ln;
#endif
        WA_UNROLL(KU)
        for (int kq = 0; kq < BK / 4; ++kq) {
            /* RP rows of A at a time: fewer operands live, B's re-read per pass. */
#pragma unroll
            for (int i0 = 0; i0 < TM; i0 += RP) {
                float4 a[RP];
#pragma unroll
                for (int i = 0; i < RP; ++i)
                    a[i] = as[(i0 + i) * WA_WTM * WA_KROW + kq];
#if GEMM_TRANS_B
#pragma unroll
                for (int j = 0; j < TN / 4; ++j) {
                    float4 b[4];
#pragma unroll
                    for (int l = 0; l < 4; ++l)
                        b[l] = bs[(4 * j + l) * WA_WTN * WA_KROW + kq];
#pragma unroll
                    for (int i = 0; i < RP; ++i) {
                        WA_DOT4(acc[i0 + i][j].x, a[i], b[0]);
                        WA_DOT4(acc[i0 + i][j].y, a[i], b[1]);
                        WA_DOT4(acc[i0 + i][j].z, a[i], b[2]);
                        WA_DOT4(acc[i0 + i][j].w, a[i], b[3]);
                    }
                }
#else
#define WA_ROW_K(c)                                                                          \
    do {                                                                                     \
        float4 b[TN / 4];                                                                    \
        for (int j = 0; j < TN / 4; ++j)                                                     \
            b[j] = bs[(4 * kq + c) * (BN / 4) + j * WA_WTN];                                 \
        for (int i = 0; i < RP; ++i)                                                         \
            for (int j = 0; j < TN / 4; ++j)                                                 \
                acc[i0 + i][j] = fma((float4)(a[i].s##c), b[j], acc[i0 + i][j]);             \
    } while (0)
                WA_ROW_K(0);
                WA_ROW_K(1);
                WA_ROW_K(2);
                WA_ROW_K(3);
#undef WA_ROW_K
#endif
            }
        }
    }
    WA_WAIT(0); /* no copy outlives the group (the last steps committed empty groups) */

    const bool edge = rows_left < BM || cols_left < BN;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = wm0 + lm + i * WA_WTM;
        if (edge && r >= rows_left)
            continue;
#pragma unroll
        for (int j = 0; j < TN / 4; ++j) {
#if GEMM_TRANS_B
            /* Columns wn0 + ln + (4j + l) * WA_WTN: one value each. */
            const float v[4] = { acc[i][j].x, acc[i][j].y, acc[i][j].z, acc[i][j].w };
#pragma unroll
            for (int l = 0; l < 4; ++l) {
                const int c = wn0 + ln + (4 * j + l) * WA_WTN;
                if (!edge || c < cols_left)
                    gemm_store1(C, ldc, bias, r, c, v[l], alpha, beta);
            }
#else
            const int c = wn0 + 4 * ln + j * 4 * WA_WTN;
            if (!edge)
                gemm_store4(C, ldc, bias, r, c, acc[i][j], alpha, beta, 4, false);
            else if (c < cols_left)
                gemm_store4(C, ldc, bias, r, c, acc[i][j], alpha, beta, cols_left - c, true);
#endif
        }
    }
}
