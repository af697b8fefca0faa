#include "common.h"
#include "mma.h"

/* Step 8: tensor cores.
 *
 * Step 7 is near the end of what FMA units give: every multiply-add is an
 * instruction, and the H100 has 128 fp32 lanes per SM.  Its tensor cores
 * multiply whole tiles per instruction: one warp-wide mma.sync m16n8k8 does
 * 16*8*8 = 1024 multiply-adds, and the SM runs several of them at once.  The
 * price is precision: the TF32 tensor-core format keeps 10 of fp32's 23
 * mantissa bits (fp32 range), so products are those of inputs rounded to about
 * 3 decimal digits; the sums stay fp32.  What changes from step 7:
 *
 *  1. The inner product.  A warp owns a WM x WN tile of C, held as
 *     (WM/16) x (WN/8) mma accumulator tiles: each lane keeps 4 entries of
 *     each, at the places the PTX fragment layout says (see mma.h).  Per 8-wide
 *     k step the warp loads one A fragment per 16 rows and one B fragment per
 *     8 columns from local memory and issues (WM/16)*(WN/8) mma: with the
 *     default 64 x 32 warp tile, 24 scalar local loads feed 16 mma = 16384
 *     multiply-adds, where step 7 spent one local load per 16 FMAs.
 *
 *  2. The local layout follows the fragments, not the FMA loop.  A stays
 *     row-major (no transposition): a lane reads A[g][t], 8 rows x 4 columns
 *     per instruction; with rows BK + 4 floats long those 32 addresses fall in
 *     32 different banks.  B rows are BN + 8 floats long, so B[t][g] (4 rows x
 *     8 columns) is conflict-free as well.  Global loads stay float4, with the
 *     next K slice in registers during the arithmetic and two local stages, as
 *     in step 7 (one barrier per K slice).
 *
 *  3. Rounding is ours.  Inputs are rounded to tf32 (round to nearest, ties
 *     away, like cvt.rna.tf32.f32) once, on their way into local memory.
 *     SPLIT=1 buys fp32-level accuracy back with three mma per step (tf32x3):
 *     x = hi + lo with hi = tf32(x), lo = tf32(x - hi), and
 *     a*b ~ a_hi*b_hi + a_hi*b_lo + a_lo*b_hi (the dropped a_lo*b_lo is below
 *     fp32 rounding).  Local memory then holds plain fp32 and each fragment is
 *     split as it is loaded.
 *
 *  4. An emulation.  The primitive is one macro, MMA_M16N8K8_TF32 (mma.h):
 *     inline PTX on NVIDIA, or with CLGEMM_EMULATE_MMA=1 portable OpenCL C
 *     that reproduces the per-lane fragment semantics through local memory and
 *     barriers.  The emulation is slow, but it lets every index around the
 *     primitive (fragments, warp tiles, edges) be tested on a CPU, so the
 *     kernel is written to call the macro uniformly in the whole work-group.
 *
 * Work-group shape: the host launches (BN/TN) x (BM/TM) work-items; this
 * kernel only uses their count, (BM/WM)*(BN/WN) warps, renumbered linearly
 * (lane = linear id % 32, which is how NVIDIA forms warps).  Interior groups
 * use unguarded float4 loads and float2 stores; edge groups, and the last K
 * slice when BK does not divide K, load zeros outside the operands, so
 * neither NaN padding nor C (when beta = 0) is ever read.  Needs offA, offB,
 * offC, lda, ldb, ldc multiples of 4.
 *
 * Measured: see the end of this comment block once numbers exist.
 */

/* Parameters (all overridable with -D):
 *   BM x BN  the block of C per work-group
 *   BK       the K slice per pipeline stage (multiple of 16)
 *   WM x WN  the block of C per warp (multiples of 16 and 8)
 *   TM, TN   only shape the launch: (BN/TN) * (BM/TM) must be the number of
 *            work-items, 32 * (BM/WM) * (BN/WN)
 *   SPLIT    0: TF32 (one mma per step); 1: tf32x3 (three, fp32 accuracy)
 *   APAD     floats of padding per local row of A and of B^T; BK + APAD
 *            must be 16 mod 32 (0 for BK = 16, 16 for BK = 32)  */
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 16
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 64
#endif
#ifndef TM
#define TM 32
#endif
#ifndef TN
#define TN 4
#endif
#ifndef SPLIT
#define SPLIT 0
#endif
#ifndef APAD
#define APAD (BK % 32 == 0 ? 16 : 0)
#endif

#define TC_TX (BN / TN)                        /* launch shape, dimension 0 */
#define TC_TY (BM / TM)                        /* launch shape, dimension 1 */
#define TC_THREADS (TC_TX * TC_TY)
#define TC_WARPS_N (BN / WN)
#define TC_WARPS ((BM / WM) * TC_WARPS_N)
#define TC_MI (WM / 16)                        /* mma tiles per warp along M */
#define TC_NI (WN / 8)                         /* ... along N */
#define TC_AS_LD (BK + APAD)                   /* floats per local row of A */
#define TC_BS_LD (BK + APAD)                   /* floats per local row of B^T */
#define TC_AS_SIZE (BM * TC_AS_LD)             /* floats per stage */
#define TC_BS_SIZE (BN * TC_BS_LD)
#define TC_A_LOADS (BM * BK / 4 / TC_THREADS)  /* float4s of A per work-item per slice */
#define TC_B_LOADS (BK * BN / 4 / TC_THREADS)  /* float4s of B per work-item per slice */

#if SPLIT != 0 && SPLIT != 1
#error "gemm_tensor_core: SPLIT must be 0 (TF32) or 1 (tf32x3)"
#endif
#if BM % WM != 0 || BN % WN != 0 || WM % 16 != 0 || WN % 8 != 0 || BK % 16 != 0
#error "gemm_tensor_core: BM must be a multiple of WM, BN of WN, WM of 16, WN of 8, BK of 16"
#endif
#if BM % TM != 0 || BN % TN != 0
#error "gemm_tensor_core: BM must be a multiple of TM and BN of TN"
#endif
#if TC_THREADS != 32 * TC_WARPS
#error "gemm_tensor_core: (BN/TN)*(BM/TM) must equal 32*(BM/WM)*(BN/WN), one work-item per lane"
#endif
#if (BM * BK / 4) % TC_THREADS != 0 || (BK * BN / 4) % TC_THREADS != 0 || TC_A_LOADS < 1 || TC_B_LOADS < 1
#error "gemm_tensor_core: BM*BK/4 and BK*BN/4 must be positive multiples of the work-group size"
#endif
#if (BK + APAD) % 32 != 16
#error "gemm_tensor_core: local rows must be 16 floats mod 32 long: BK + APAD = 16 (mod 32)"
#endif
#if 4 * (2 * (TC_AS_SIZE + TC_BS_SIZE) + CLGEMM_EMULATE_MMA * TC_WARPS * MMA_SCRATCH_FLOATS) > 49152
#error "gemm_tensor_core: two K slices of A and B (plus emulation scratch) exceed 48 KiB of local memory"
#endif

/* Four consecutive floats at p (16-byte aligned); guarded, only the first
 * `valid` of them exist (valid may be <= 0) and the rest read as zero. */
inline float4 tc_load4(__global const float *p, const int valid, const bool guarded)
{
    if (!guarded || valid >= 4)
        return *(__global const float4 *)p;
    return (float4)(valid > 0 ? p[0] : 0.0f, valid > 1 ? p[1] : 0.0f,
                    valid > 2 ? p[2] : 0.0f, 0.0f);
}

/* This work-item's share of one K slice into registers.  A and B point at the
 * slice's corner; rows_left, cols_left and k_left bound the guarded loads.
 * A: BK/4 float4s per row, consecutive work-items along a row.  B: consecutive
 * work-items go down a column of float4s (k fastest), which makes the
 * transposing stores of tc_stash conflict-free; each row still gives whole
 * 32-byte sectors. */
inline void tc_fetch(float4 *ra, float4 *rb, __global const float *A, const int lda,
                     __global const float *B, const int ldb, const int rows_left,
                     const int cols_left, const int k_left, const int tid, const bool guarded)
{
#pragma unroll
    for (int i = 0; i < TC_A_LOADS; ++i) {
        const int e = tid + i * TC_THREADS;
        const int r = e / (BK / 4), k = (e % (BK / 4)) * 4;
        ra[i] = tc_load4(A + r * lda + k, r < rows_left ? k_left - k : 0, guarded);
    }
#pragma unroll
    for (int i = 0; i < TC_B_LOADS; ++i) {
        const int e = tid + i * TC_THREADS;
        const int k = e % BK, c = (e / BK) * 4;
        rb[i] = tc_load4(B + k * ldb + c, k < k_left ? cols_left - c : 0, guarded);
    }
}

inline float4 tc_round4(const float4 v)
{
#if SPLIT
    return v;   /* split into hi and lo when the fragments are loaded */
#else
    return (float4)(tf32_round(v.x), tf32_round(v.y), tf32_round(v.z), tf32_round(v.w));
#endif
}

/* Local row of column n of B: rows n and n ^ 1 trade places when bit 2 of n is
 * set.  The 32 work-items of a transposing store write columns c..c+3 and
 * c+4..c+7 (c a multiple of 8) at 16 values of k; rows are 16 floats (mod 32)
 * long, so without the swap both halves of the warp would hit the same 16
 * banks.  Fragment reads (8 columns n0 + g, n0 a multiple of 8, per 8 lanes
 * two at a time) stay conflict-free. */
inline int tc_bswz(const int n)
{
    return n ^ ((n >> 2) & 1);
}

/* The fetched slice into one stage of local memory: A row-major (A[m][k]),
 * B transposed (B^T[n][k], rows swapped by tc_bswz), both with k contiguous so
 * that one float4 holds a lane's fragment values for two mma k steps. */
inline void tc_stash(__local float *as, __local float *bs, const float4 *ra, const float4 *rb,
                     const int tid)
{
#pragma unroll
    for (int i = 0; i < TC_A_LOADS; ++i) {
        const int e = tid + i * TC_THREADS;
        const int r = e / (BK / 4), k = (e % (BK / 4)) * 4;
        *(__local float4 *)(as + r * TC_AS_LD + k) = tc_round4(ra[i]);
    }
#pragma unroll
    for (int i = 0; i < TC_B_LOADS; ++i) {
        const int e = tid + i * TC_THREADS;
        const int k = e % BK, c = (e / BK) * 4;
        const float4 v = tc_round4(rb[i]);
        bs[tc_bswz(c + 0) * TC_BS_LD + k] = v.x;
        bs[tc_bswz(c + 1) * TC_BS_LD + k] = v.y;
        bs[tc_bswz(c + 2) * TC_BS_LD + k] = v.z;
        bs[tc_bswz(c + 3) * TC_BS_LD + k] = v.w;
    }
}

/* Two neighbouring results of one row, (r, c) and (r, c+1), c even. */
inline void tc_store2(__global float *C, const int ldc, const int r, const int c, const float x,
                      const float y, const float alpha, const float beta, const int rows_left,
                      const int cols_left, const bool guarded)
{
    __global float *p = C + r * ldc + c;
    if (!guarded) {
        *(__global float2 *)p = (float2)(gemm_epilogue(x, alpha, beta, p),
                                         gemm_epilogue(y, alpha, beta, p + 1));
    } else if (r < rows_left) {
        if (c < cols_left)
            p[0] = gemm_epilogue(x, alpha, beta, p);
        if (c + 1 < cols_left)
            p[1] = gemm_epilogue(y, alpha, beta, p + 1);
    }
}

__kernel __attribute__((reqd_work_group_size(TC_TX, TC_TY, 1)))
void gemm_tensor_core(const int M, const int N, const int K, const float alpha,
                      __global const float *restrict A, const int offA, const int lda,
                      __global const float *restrict B, const int offB, const int ldb,
                      const float beta,
                      __global float *restrict C, const int offC, const int ldc)
{
    __local float4 As4[2 * TC_AS_SIZE / 4];   /* stage s, A(m, k) at [s*AS_SIZE + m*AS_LD + k] */
    __local float4 Bs4[2 * TC_BS_SIZE / 4];   /* stage s, B(k, n) at [s*BS_SIZE + k*BS_LD + n] */
    __local float *const As = (__local float *)As4;
    __local float *const Bs = (__local float *)Bs4;

    const int tid = get_local_id(1) * TC_TX + get_local_id(0);
    MMA_WARP_SETUP(tid, TC_WARPS);
    const int warp = tid / MMA_WARP, lane = tid % MMA_WARP;
    const int g = lane >> 2, t = lane & 3;
    const int wm0 = (warp / TC_WARPS_N) * WM, wn0 = (warp % TC_WARPS_N) * WN;

    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
    const int rows_left = M - row0, cols_left = N - col0;
    A += offA + row0 * lda;
    B += offB + col0;
    C += offC + row0 * ldc + col0;
    const bool edge = rows_left < BM || cols_left < BN;

    float acc[TC_MI][TC_NI][4];
#pragma unroll
    for (int i = 0; i < TC_MI; ++i)
#pragma unroll
        for (int j = 0; j < TC_NI; ++j)
#pragma unroll
            for (int q = 0; q < 4; ++q)
                acc[i][j][q] = 0.0f;

    float4 ra[TC_A_LOADS], rb[TC_B_LOADS];
    if (edge || K < BK)
        tc_fetch(ra, rb, A, lda, B, ldb, rows_left, cols_left, K, tid, true);
    else
        tc_fetch(ra, rb, A, lda, B, ldb, BM, BN, BK, tid, false);
    tc_stash(As, Bs, ra, rb, tid);
    barrier(CLK_LOCAL_MEM_FENCE);

    /* The k order inside an mma is free, as long as A and B agree: lane t takes
     * the k of its fragments from 4t .. 4t+3 of each 16-wide piece of the
     * slice, so one float4 of A (row g) and one of B (column g) hold its values
     * for two mma k steps.  Step s of the pair uses (x, y) or (z, w) as the
     * fragment's k = t and k = t + 4:
     *     a0 = A[g][4t+2s]  a2 = A[g][4t+2s+1]  a1, a3 the same of row g + 8
     *     b0 = B[4t+2s][g]  b1 = B[4t+2s+1][g]
     * The four lanes t cover the 16 k exactly once, and the reads are float4
     * (8 lanes a time: two rows of 16 floats, all 32 banks). */
    const int a_frag = (wm0 + g) * TC_AS_LD + 4 * t;
    const int b_frag = 4 * t;
    int b_rows[TC_NI];
#pragma unroll
    for (int j = 0; j < TC_NI; ++j)
        b_rows[j] = tc_bswz(wn0 + j * 8 + g) * TC_BS_LD;

    int stage = 0;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const int k_next = k0 + BK;
        const bool more = k_next < K;
        if (more) {   /* the next slice's loads fly during the mma below */
            if (edge || K - k_next < BK)
                tc_fetch(ra, rb, A + k_next, lda, B + k_next * ldb, ldb, rows_left, cols_left,
                         K - k_next, tid, true);
            else
                tc_fetch(ra, rb, A + k_next, lda, B + k_next * ldb, ldb, BM, BN, BK, tid, false);
        }

        __local const float *as = As + stage * TC_AS_SIZE + a_frag;
        __local const float *bs = Bs + stage * TC_BS_SIZE + b_frag;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            float4 b[TC_NI];
#pragma unroll
            for (int j = 0; j < TC_NI; ++j)
                b[j] = *(__local const float4 *)(bs + b_rows[j] + kk);
#pragma unroll
            for (int i = 0; i < TC_MI; ++i) {
                __local const float *p = as + i * 16 * TC_AS_LD + kk;
                const float4 lo = *(__local const float4 *)p;                   /* row g */
                const float4 hi = *(__local const float4 *)(p + 8 * TC_AS_LD);  /* row g+8 */
#pragma unroll
                for (int s = 0; s < 2; ++s) {
                    float a0 = s ? lo.z : lo.x, a2 = s ? lo.w : lo.y;
                    float a1 = s ? hi.z : hi.x, a3 = s ? hi.w : hi.y;
#if SPLIT
                    const float h0 = tf32_round(a0), h1 = tf32_round(a1);
                    const float h2 = tf32_round(a2), h3 = tf32_round(a3);
                    const float l0 = tf32_round(a0 - h0), l1 = tf32_round(a1 - h1);
                    const float l2 = tf32_round(a2 - h2), l3 = tf32_round(a3 - h3);
                    a0 = h0; a1 = h1; a2 = h2; a3 = h3;
#endif
#pragma unroll
                    for (int j = 0; j < TC_NI; ++j) {
                        float b0 = s ? b[j].z : b[j].x, b1 = s ? b[j].w : b[j].y;
#if SPLIT   /* the small terms first */
                        const float g0 = tf32_round(b0), g1 = tf32_round(b1);
                        const float m0 = tf32_round(b0 - g0), m1 = tf32_round(b1 - g1);
                        b0 = g0; b1 = g1;
                        MMA_M16N8K8_TF32(acc[i][j][0], acc[i][j][1], acc[i][j][2], acc[i][j][3],
                                         l0, l1, l2, l3, b0, b1);
                        MMA_M16N8K8_TF32(acc[i][j][0], acc[i][j][1], acc[i][j][2], acc[i][j][3],
                                         a0, a1, a2, a3, m0, m1);
#endif
                        MMA_M16N8K8_TF32(acc[i][j][0], acc[i][j][1], acc[i][j][2], acc[i][j][3],
                                         a0, a1, a2, a3, b0, b1);
                    }
                }
            }
        }

        /* The other stage was last read before the previous barrier. */
        if (more)
            tc_stash(As + (stage ^ 1) * TC_AS_SIZE, Bs + (stage ^ 1) * TC_BS_SIZE, ra, rb, tid);
        barrier(CLK_LOCAL_MEM_FENCE);
        stage ^= 1;
    }

    /* Lane (g, t) holds D[g][2t..2t+1] and D[g+8][2t..2t+1] of every mma tile. */
#pragma unroll
    for (int i = 0; i < TC_MI; ++i)
#pragma unroll
        for (int j = 0; j < TC_NI; ++j) {
            const int r = wm0 + i * 16 + g, c = wn0 + j * 8 + 2 * t;
            if (!edge) {
                tc_store2(C, ldc, r, c, acc[i][j][0], acc[i][j][1], alpha, beta, BM, BN, false);
                tc_store2(C, ldc, r + 8, c, acc[i][j][2], acc[i][j][3], alpha, beta, BM, BN, false);
            } else {
                tc_store2(C, ldc, r, c, acc[i][j][0], acc[i][j][1], alpha, beta, rows_left,
                          cols_left, true);
                tc_store2(C, ldc, r + 8, c, acc[i][j][2], acc[i][j][3], alpha, beta, rows_left,
                          cols_left, true);
            }
        }
}
