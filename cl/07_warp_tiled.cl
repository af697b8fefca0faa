#include "common.h"

/* Step 7: warp tiling and a software pipeline.
 *
 * Step 6 does the arithmetic right but leaves the machine waiting.  Each K
 * step is: load global -> barrier -> compute -> barrier, so while a group
 * fetches its next slice none of it computes; the only cover is a second
 * group resident on the same SM.  What changes:
 *
 *  1. A pipeline.  Local memory holds two K slices (double buffering).  While
 *     the work-items multiply out of one slice, the loads of the next slice
 *     are already in flight into registers; they are written to the other
 *     buffer after the arithmetic, so their latency hides behind BK*TM*TN
 *     FMAs.  The buffer being written is never the one being read, so one
 *     barrier per K step suffices (step 6 needs two).
 *
 *  2. A warp tile.  A warp (32 work-items) executes in lock step and local
 *     memory serves it as one request, so the layout is planned per warp: the
 *     group's C block is cut into WM x WN warp tiles, and a warp's 32
 *     work-items form a (WM/TM) x (WN/TN) grid inside its tile.  A work-item
 *     still owns TM x TN results, as (TM/4) x (TN/4) blocks of 4 x 4 that lie
 *     one warp grid apart, so at every k the warp reads a few neighbouring
 *     float4s of A and of B, each broadcast to several work-items: no bank
 *     conflicts.  The warp tile's shape is a free parameter; on the H200 the
 *     tall 128 x 16 tile measured fastest, ahead of 64 x 32 and 32 x 64 at the
 *     same register count (docs/steps_1_7.md).
 *
 *  3. Conflict-free transposition.  A goes into local memory transposed, as
 *     in step 6, but each warp fetches 16 rows x 2 float4s of A (32 bytes per
 *     row, whole sectors), so its scattered stores land in 32 different banks.
 *
 *  4. A register budget.  A group is 256 work-items and an SM has 64K
 *     registers: at up to 128 registers per work-item two groups share an
 *     SM and cover each other's barriers, at 129 only one fits.  Holding the
 *     next slice costs registers, so the slice is thin (BK = 8: 2 float4s per
 *     work-item in flight) and the K loop is unrolled over the two buffers so
 *     that no register tracks which one is current.  This kernel uses 127.
 *     With BK = 16 the same code needs 137 registers and falls below step 6:
 *     on this GPU the pipeline pays only within budget.  OpenCL C cannot state
 *     that budget; the host's MAXNREG=N writes it into NVIDIA's PTX
 *     (host/lib/ptx_maxnreg.h), which the transposed batch rules use.
 *
 *  5. Edges at the price of the interior (CLAMP=1).  All groups of a
 *     mid-sized problem run at once, so one slow edge group sets the time.
 *     Edge groups clamp their loads instead of testing them (see wt_fetch);
 *     only the last K slice when BK does not divide K, and edges that cut a
 *     float4 (B's columns when 4 does not divide N, a transposed A's rows when
 *     4 does not divide M), take the element-wise guarded path, so odd sizes
 *     run close to the aligned ones.  It costs about 3 registers, which the
 *     127-register 128 x 128 tile cannot spare (at 130 only one group fits an
 *     SM), so it is a tuning parameter: the database picks it per size.
 *     Stores are guarded on edge tiles either way.
 *
 *  6. Transposed operands read where they lie (GEMM_TRANS_A/B, cl/common.h).
 *     A B stored N x K (every PyTorch Linear's weight) has k contiguous, like
 *     A: it is fetched as A is and transposed into a padded tile as in point
 *     3.  An A stored K x M has m contiguous, like B: fetched as B is, stored
 *     as it comes.  The tiles and the arithmetic are the plain build's, and
 *     no pre-pass transposes the whole operand: on the H100 that pass is a
 *     third of the time at 128 x 4096 x 4096, but at 4096^3 (49 us) the
 *     in-place read lost more, so the host chooses (READT, host/lib/plan.c).
 * Requires offA, offB, offC, lda, ldb and ldc to be multiples of 4 (float4
 * alignment); M, N and K are arbitrary, and padding past a row's end is never
 * read.
 *
 * Its speed beside CLBlast and cuBLAS: docs/results.md, row "warp_tiled".
 */

/* Parameters (all overridable with -D):
 *   BM x BN  the block of C per work-group
 *   BK       the K slice per pipeline stage (multiple of 4)
 *   TM x TN  the results per work-item (multiples of 4)
 *   WM x WN  the block of C per warp; (WM/TM) * (WN/TN) must be 32
 *   VEC      vector width, fixed at 4 (float4)
 *   WARP     work-items per warp (32 on NVIDIA; only the layout depends on it)
 *   APAD     floats of padding per row of a tile filled by transposing stores:
 *            A's, or B's when B is stored transposed (4 makes those stores
 *            conflict-free; measured no difference on the H200 between 0, 4
 *            and 8 for A)
 *   PREFETCH 1: load the next slice before computing the current one (the
 *            pipeline); 0: load it after, holding nothing across the FMAs
 *   CLAMP    1: edge tiles clamp their loads (branch-free, about 3 more
 *            registers); 0: edge tiles take the guarded loads in every K step
 * The work-group is (BN/TN) x (BM/TM) work-items, (BM/WM) * (BN/WN) warps. */
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
#ifndef WM
#define WM 128
#endif
#ifndef WN
#define WN 16
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef WARP
#define WARP 32
#endif
#ifndef APAD
#define APAD 4
#endif
#ifndef PREFETCH
#define PREFETCH 1
#endif
#ifndef CLAMP
#define CLAMP 0
#endif

#define WT_TX (BN / TN)                 /* work-items along dimension 0 */
#define WT_TY (BM / TM)                 /* work-items along dimension 1 */
#define WT_THREADS (WT_TX * WT_TY)
#define WT_WTM (WM / TM)                /* a warp's work-items along M */
#define WT_WTN (WN / TN)                /* a warp's work-items along N */
#define WT_WMITER (TM / 4)              /* 4-row blocks per work-item */
#define WT_WNITER (TN / 4)              /* 4-column blocks per work-item */
#define WT_WARPS_N (BN / WN)            /* warps side by side along N */
#define WT_KQ (BK / 4)                  /* float4s per row of a k-contiguous slice */
/* A warp fetches WT_WROWS rows x WT_WKQ float4s of a k-contiguous slice (wt_kc_coords). */
#if (BK / 4) % 2 == 0
#define WT_WKQ 2
#else
#define WT_WKQ 1
#endif
#define WT_WROWS (WARP / WT_WKQ)
/* Floats per row of the local tiles As[k][m] and Bs[k][n]: padded where transposing
 * stores fill them (point 3), not where float4s go in as fetched. */
#define WT_AS_ROW (BM + (GEMM_TRANS_A ? 0 : APAD))
#define WT_BS_ROW (BN + (GEMM_TRANS_B ? APAD : 0))
#define WT_A_LOADS (BM * BK / 4 / WT_THREADS)   /* float4s of A per work-item per slice */
#define WT_B_LOADS (BK * BN / 4 / WT_THREADS)   /* float4s of B per work-item per slice */

#if VEC != 4
#error "gemm_warp_tiled is written for float4: VEC must be 4"
#endif
#if TM % 4 != 0 || TN % 4 != 0 || BK % 4 != 0 || APAD % 4 != 0
#error "gemm_warp_tiled: TM, TN, BK and APAD must be multiples of 4"
#endif
#if BM % WM != 0 || BN % WN != 0 || WM % TM != 0 || WN % TN != 0
#error "gemm_warp_tiled: BM must be a multiple of WM, WM of TM, BN of WN and WN of TN"
#endif
#if WT_WTM * WT_WTN != WARP
#error "gemm_warp_tiled: a warp tile must hold one warp: (WM/TM) * (WN/TN) == WARP"
#endif
#if WT_THREADS % WARP != 0
#error "gemm_warp_tiled: the work-group must be whole warps"
#endif
#if (BM * BK / 4) % WT_THREADS != 0 || (BK * BN / 4) % WT_THREADS != 0
#error "gemm_warp_tiled: BM*BK/4 and BK*BN/4 must be multiples of the work-group size"
#endif
#if !GEMM_TRANS_A && BM % WT_WROWS != 0
#error "gemm_warp_tiled: BM must be a multiple of 16 (32 when BK/4 is odd)"
#endif
#if GEMM_TRANS_B && BN % WT_WROWS != 0
#error "gemm_warp_tiled: a transposed B needs BN a multiple of 16 (32 when BK/4 is odd)"
#endif
#if 2 * BK * (WT_AS_ROW + WT_BS_ROW) * 4 > 49152
#error "gemm_warp_tiled: two K slices of A and B exceed 48 KiB of local memory"
#endif

/* Four consecutive floats at p (16-byte aligned).  Guarded, only the first
 * `valid` exist (valid may be anything, <= 0 included) and the rest read as
 * zero; a vector wholly inside the matrix is still a single load. */
inline float4 wt_load4(__global const float *p, const int valid, const bool guarded)
{
    if (!guarded || valid >= 4)
        return *(__global const float4 *)p;
    return (float4)(valid > 0 ? p[0] : 0.0f,
                    valid > 1 ? p[1] : 0.0f,
                    valid > 2 ? p[2] : 0.0f,
                    0.0f);
}

/* The two shapes a slice has in global memory.  k-contiguous: W rows of BK
 * floats (A; B stored N x K).  W-contiguous: BK rows of W floats (B; A stored
 * K x M).  P points at the slice's corner, rows ld apart; w_left of its W
 * lines and k_left of its ks exist.  `guarded` is a literal at every call.
 *
 * Float4 i of this work-item's share of a k-contiguous slice: row *r, columns
 * 4 * *kq .. +3.  A warp takes WT_WROWS consecutive rows x WT_WKQ consecutive
 * float4s, so in global memory each row gives 32 contiguous bytes (whole
 * sectors), and in the transposed tile the rows land on consecutive banks,
 * the float4 columns 16 banks apart (with APAD = 4, a padded row is 4 mod 8
 * floats): a warp's scalar stores hit 32 different banks. */
inline void wt_kc_coords(const int tid, const int i, int *r, int *kq)
{
    const int e = tid + i * WT_THREADS;
    const int slab = e / WARP, lane = e % WARP;
    *kq = (slab % (WT_KQ / WT_WKQ)) * WT_WKQ + lane / WT_WROWS;
    *r = (slab / (WT_KQ / WT_WKQ)) * WT_WROWS + lane % WT_WROWS;
}

/* Clamped, a row past the edge reads the last real row. */
inline float4 wt_kc_load(__global const float *P, const int ld, const int w_left,
                         const int k_left, const int tid, const int i, const bool guarded)
{
    int r, kq;
    wt_kc_coords(tid, i, &r, &kq);
    if (guarded)
        return wt_load4(P + r * ld + 4 * kq, r < w_left ? k_left - 4 * kq : 0, true);
    return wt_load4(P + (CLAMP ? min(r, w_left - 1) : r) * ld + 4 * kq, 4, false);
}

/* Into T[k][w] (rows of `row` floats), transposed: four scalar stores. */
inline void wt_kc_stash(__local float *T, const int row, const float4 v, const int tid,
                        const int i)
{
    int r, kq;
    wt_kc_coords(tid, i, &r, &kq);
    __local float *dst = T + 4 * kq * row + r;
    dst[0 * row] = v.x;
    dst[1 * row] = v.y;
    dst[2 * row] = v.z;
    dst[3 * row] = v.w;
}

/* Float4 i of a W-contiguous slice: row k, columns c .. c+3.  Clamped, a
 * float4 past the edge reads the last real one (callers clamp only where 4
 * divides the edge, so there is one). */
inline float4 wt_wc_load(__global const float *P, const int ld, const int W, const int w_left,
                         const int k_left, const int tid, const int i, const bool guarded)
{
    const int e = tid + i * WT_THREADS;
    const int k = e / (W / 4), c = (e % (W / 4)) * 4;
    if (guarded)
        return wt_load4(P + k * ld + c, k < k_left ? w_left - c : 0, true);
    return wt_load4(P + k * ld + (CLAMP ? min(c, w_left - 4) : c), 4, false);
}

/* Fetch this work-item's share of the next K slice into registers.
 * Unguarded, the loads are bare float4s.  With CLAMP=1 that includes edge
 * tiles, at clamped places (rows of A past M, columns of B past N).  Their
 * products land in rows and columns of C that are never stored, so no test
 * or branch enters the loop.  Guarded (the last, partial K slice; edge tiles
 * with CLAMP=0 or where an edge cuts a float4), elements outside A and B read
 * as zero. */
inline void wt_fetch(float4 *ra, float4 *rb,
                     __global const float *A, const int lda,
                     __global const float *B, const int ldb,
                     const int rows_left, const int cols_left, const int k_left,
                     const int tid, const bool guarded)
{
#pragma unroll
    for (int i = 0; i < WT_A_LOADS; ++i) {
#if GEMM_TRANS_A
        ra[i] = wt_wc_load(A, lda, BM, rows_left, k_left, tid, i, guarded);
#else
        ra[i] = wt_kc_load(A, lda, rows_left, k_left, tid, i, guarded);
#endif
    }
#pragma unroll
    for (int i = 0; i < WT_B_LOADS; ++i) {
#if GEMM_TRANS_B
        rb[i] = wt_kc_load(B, ldb, cols_left, k_left, tid, i, guarded);
#else
        rb[i] = wt_wc_load(B, ldb, BN, cols_left, k_left, tid, i, guarded);
#endif
    }
}

/* Write the fetched slice into one stage of local memory, As[k][m] and
 * Bs[k][n]: a k-contiguous slice transposed, a W-contiguous one as it comes
 * (its float4 e is the unpadded tile's float4 e). */
inline void wt_stash(__local float4 *As, __local float4 *Bs,
                     const float4 *ra, const float4 *rb, const int tid)
{
#pragma unroll
    for (int i = 0; i < WT_A_LOADS; ++i) {
#if GEMM_TRANS_A
        As[tid + i * WT_THREADS] = ra[i];
#else
        wt_kc_stash((__local float *)As, WT_AS_ROW, ra[i], tid, i);
#endif
    }
#pragma unroll
    for (int i = 0; i < WT_B_LOADS; ++i) {
#if GEMM_TRANS_B
        wt_kc_stash((__local float *)Bs, WT_BS_ROW, rb[i], tid, i);
#else
        Bs[tid + i * WT_THREADS] = rb[i];
#endif
    }
}

__kernel __attribute__((reqd_work_group_size(WT_TX, WT_TY, 1)))
void gemm_warp_tiled(const int M, const int N, const int K, const float alpha,
                     __global const float *restrict A, const int offA, const int lda,
                     __global const float *restrict B, const int offB, const int ldb,
                     const float beta,
                     __global gemm_c_t *restrict C, const int offC, const int ldc,
                     __global const gemm_c_t *restrict bias, const int offBias,
                     const int strideA, const int strideB, const int strideC)
{
    GEMM_BATCH_ENTRY(A, B, C);
    /* Two stages of the pipeline; float4 so that every row is 16-byte aligned.  A stage is
     * one array of BK rows, so that no index runs past the array it names (oclgrind checks). */
    __local float4 As4[2][BK * WT_AS_ROW / 4];  /* [s][k * row/4 + m/4] = A(m .. m+3, k) */
    __local float4 Bs4[2][BK * WT_BS_ROW / 4];  /* [s][k * row/4 + n/4] = B(k, n .. n+3) */

    const int tid = get_local_id(1) * WT_TX + get_local_id(0);

    /* The warp's tile of the block, and this work-item's place in the warp. */
    const int warp = tid / WARP, lane = tid % WARP;
    const int wm0 = (warp / WT_WARPS_N) * WM, wn0 = (warp % WT_WARPS_N) * WN;
    const int lm = lane / WT_WTN, ln = lane % WT_WTN;
    /* This work-item owns rows wm0 + i*4*WT_WTM + 4*lm + 0..3 (i < WMITER) and
     * columns wn0 + j*4*WT_WTN + 4*ln + 0..3 (j < WNITER); in float4 units: */
    const int a_col = wm0 / 4 + lm, b_col = wn0 / 4 + ln;

    /* From here on, rows and columns count from this group's corner of C. */
    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
    const int rows_left = M - row0, cols_left = N - col0;
    /* How far one k moves A and B as they are stored: along a row or down one
     * (literals in either build, as is every GEMM_TRANS_ test below). */
    const int a_k = GEMM_TRANS_A ? lda : 1, b_k = GEMM_TRANS_B ? 1 : ldb;
    A += offA + (GEMM_TRANS_A ? row0 : row0 * lda);
    B += offB + (GEMM_TRANS_B ? col0 * ldb : col0);
    GEMM_C_MOVE(row0, col0);
    GEMM_BIAS_MOVE(row0, col0);

    /* Decided once per group: whether the tile crosses M or N (guarded stores),
     * and whether its loads need guards beyond the clamping (only where an edge
     * cuts a float4: B's columns, a transposed A's rows; see wt_fetch). */
    const bool edge = rows_left < BM || cols_left < BN;
#if GEMM_TRANS_B /* (#if, not a constant in ||: compilers warn, and the tests read stderr) */
    const bool cut_n = false;
#else
    const bool cut_n = cols_left < BN && (N & 3) != 0;
#endif
#if GEMM_TRANS_A
    const bool cut_m = rows_left < BM && (M & 3) != 0;
#else
    const bool cut_m = false;
#endif
    const bool guard = CLAMP ? cut_n || cut_m : edge;

    float4 acc[TM][WT_WNITER];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < WT_WNITER; ++j)
            acc[i][j] = (float4)(0.0f);

    float4 ra[WT_A_LOADS], rb[WT_B_LOADS];

    /* Prologue: slice 0 into stage 0. */
    if (guard || K < BK)
        wt_fetch(ra, rb, A, lda, B, ldb, rows_left, cols_left, K, tid, true);
    else
        wt_fetch(ra, rb, A, lda, B, ldb, rows_left, cols_left, BK, tid, false);
    wt_stash(As4[0], Bs4[0], ra, rb, tid);
    barrier(CLK_LOCAL_MEM_FENCE);

    /* The K loop, unrolled over the two stages: each stage's local-memory
     * addresses are then fixed offsets from one base, and no register has to
     * remember which buffer is current. */
    for (int k00 = 0; k00 < K; k00 += 2 * BK) {
#pragma unroll
        for (int stage = 0; stage < 2; ++stage) {
            const int k0 = k00 + stage * BK;
            if (k0 >= K)
                break;
            const int k_next = k0 + BK;
            const bool more = k_next < K;

            /* Issue the loads of the next slice; they complete while we compute. */
            if (PREFETCH && more) {
                if (guard || K - k_next < BK)
                    wt_fetch(ra, rb, A + k_next * a_k, lda, B + k_next * b_k, ldb,
                             rows_left, cols_left, K - k_next, tid, true);
                else
                    wt_fetch(ra, rb, A + k_next * a_k, lda, B + k_next * b_k, ldb,
                             rows_left, cols_left, BK, tid, false);
            }

            __local const float4 *as = &As4[stage][a_col];
            __local const float4 *bs = &Bs4[stage][b_col];
#pragma unroll
            for (int k = 0; k < BK; ++k) {
                float4 a[WT_WMITER], b[WT_WNITER];
#pragma unroll
                for (int i = 0; i < WT_WMITER; ++i)
                    a[i] = as[k * (WT_AS_ROW / 4) + i * WT_WTM];
#pragma unroll
                for (int j = 0; j < WT_WNITER; ++j)
                    b[j] = bs[k * (WT_BS_ROW / 4) + j * WT_WTN];
#pragma unroll
                for (int i = 0; i < WT_WMITER; ++i)
#pragma unroll
                    for (int j = 0; j < WT_WNITER; ++j) {
                        acc[4 * i + 0][j] = fma((float4)(a[i].x), b[j], acc[4 * i + 0][j]);
                        acc[4 * i + 1][j] = fma((float4)(a[i].y), b[j], acc[4 * i + 1][j]);
                        acc[4 * i + 2][j] = fma((float4)(a[i].z), b[j], acc[4 * i + 2][j]);
                        acc[4 * i + 3][j] = fma((float4)(a[i].w), b[j], acc[4 * i + 3][j]);
                    }
            }

            /* PREFETCH=0: load the next slice only now (fewer live registers,
             * no overlap inside the work-group). */
            if (!PREFETCH && more) {
                if (guard || K - k_next < BK)
                    wt_fetch(ra, rb, A + k_next * a_k, lda, B + k_next * b_k, ldb,
                             rows_left, cols_left, K - k_next, tid, true);
                else
                    wt_fetch(ra, rb, A + k_next * a_k, lda, B + k_next * b_k, ldb,
                             rows_left, cols_left, BK, tid, false);
            }
            /* The other stage was last read before the previous barrier, which
             * every work-item has passed: it is free to fill. */
            if (more)
                wt_stash(As4[stage ^ 1], Bs4[stage ^ 1], ra, rb, tid);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = wm0 + (i / 4) * 4 * WT_WTM + 4 * lm + i % 4;
#pragma unroll
        for (int j = 0; j < WT_WNITER; ++j) {
            const int c = wn0 + j * 4 * WT_WTN + 4 * ln;
            if (!edge)
                gemm_store4(C, ldc, bias, r, c, acc[i][j], alpha, beta, 4, false);
            else if (r < rows_left)
                gemm_store4(C, ldc, bias, r, c, acc[i][j], alpha, beta, cols_left - c, true);
        }
    }
}
