#include "common.h"
#include "mma/mma_tf32.h"

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
 *     default 64 x 64 warp tile, 32 scalar local loads feed 32 mma = 32768
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
 *     split as it is loaded.  The split alone measured 16x the error of step 7
 *     at 4096^3 (3.1e-6 against 1.9e-7): the tensor core's own additions are
 *     not round-to-nearest, and over K = 4096 additions the bias adds up.  So
 *     with PROMOTE (on by default with SPLIT) each k step's three products are
 *     summed by the tensor core from zero, and that partial sum of 8 terms is
 *     added to the accumulator by an fp32 add, which rounds to nearest: the
 *     long sum is then an ordinary fp32 sum, as in step 7.
 *
 *  4. An emulation.  The primitive is one macro, MMA_M16N8K8_TF32 (mma.h):
 *     inline PTX on NVIDIA, or with CLGEMM_EMULATE_MMA=1 portable OpenCL C
 *     that reproduces the per-lane fragment semantics through local memory and
 *     barriers.  The emulation is slow, but it lets every index around the
 *     primitive (fragments, warp tiles, edges) be tested on a CPU, so the
 *     kernel is written to call the macro uniformly in the whole work-group.
 *
 *  5. Fragment loads by the matrix (LDMATRIX=1, off by default until it is
 *     measured).  A scalar local load brings one word per lane, so a warp's
 *     4 + 2 fragment registers per mma tile cost one load instruction each: at
 *     64 x 64, 32 loads per 32 mma per k step, and the load pipe, not the
 *     tensor core, sets the pace.  ldmatrix (mma.h) brings four 8 x 8 matrices
 *     of 16-bit values, one 16-byte row per lane address, and hands lane l the
 *     word l % 4 of row l / 4 of each matrix.  With 32-bit data a matrix is 8
 *     rows x 4 floats and those words are exactly the tf32 fragments: one
 *     ldmatrix.x4 is a whole A fragment (rows 0-7 and 8-15, k 0-3 and 4-7 of
 *     row-major A), and one gives the B fragments of two n-tiles, if B is stored
 *     n-major (Bt[n][k]) so that a fragment's rows are contiguous along k.  Per
 *     k step the 64 x 64 warp tile then needs 4 + 4 = 8 load instructions
 *     instead of 32, into the same registers.  The layout must suit it: rows are
 *     16-byte aligned, and the 8 rows one matrix reads lie BK + 4 floats apart
 *     (4 mod 8 floats: 8 different 16-byte bank groups), so each matrix is read
 *     without conflicts, as the scalar loads were.  B is transposed on its way
 *     into local memory, and to keep those scalar stores conflict-free each warp
 *     fetches B as 16 rows x 2 float4s (k fastest across lanes, 32 bytes per
 *     global row: whole sectors), as step 7 does with A.  Rounding to tf32
 *     still happens before the store; ldmatrix moves bits.
 *     Measured (H100, 4096^3, WM=64 WN=64 TM=32 TN=4, same process): 94.7
 *     TFLOP/s against 133.4 with LDMATRIX=0, so it stays off by default.  The
 *     fragments are right (all GPU checks pass); why it is slower is not yet
 *     understood (registers were not captured in that run).
 *
 * Work-group shape: the host launches (BN/TN) x (BM/TM) work-items; this
 * kernel only uses their count, (BM/WM)*(BN/WN) warps, renumbered linearly
 * (lane = linear id % 32, which is how NVIDIA forms warps).  Interior groups
 * use unguarded float4 loads and float2 stores; edge groups, and the last K
 * slice when BK does not divide K, load zeros outside the operands, so
 * neither NaN padding nor C (when beta = 0) is ever read.  Needs offA, offB,
 * offC, lda, ldb, ldc multiples of 4.
 *
 * Measured on an NVIDIA H200 (OpenCL, driver 580.159.04), 4096^3, best of 20,
 * with this harness-checked kernel at its defaults (128 x 128 group tile,
 * 64 x 64 warp tiles, 4 warps, BK = 16; 243 registers, no spills):
 *     TF32     125.8 TFLOP/s   2.7x step 7 (46.6), error 2.3e-5 of sum|a*b|
 *     tf32x3    55.0 TFLOP/s   1.2x step 7, error 2.9e-6 (fp32-level)
 * The 64 x 32 warp tile (8 warps, 162 registers) measured 77.5 and 41.6: the
 * wider warp tile needs a third fewer local loads per mma, which matters more than
 * occupancy.  What limits it now: scalar fragment loads from local memory and
 * the register budget.  A variant that reads each lane's A and B values for
 * two k steps as one float4 (k permuted inside the mma, B transposed in local
 * memory) issued 4x fewer local loads but needed 255 registers and spilled,
 * and ran at 75 TFLOP/s.  ldmatrix (5.) issues the same 4x fewer load
 * instructions without the extra registers.  The next steps are cp.async
 * pipelines and, on Hopper, wgmma, which NVIDIA's OpenCL exposes only through
 * more inline PTX.
 */

/* Parameters (all overridable with -D):
 *   BM x BN  the block of C per work-group
 *   BK       the K slice per pipeline stage (multiple of 8)
 *   WM x WN  the block of C per warp (multiples of 16 and 8)
 *   TM, TN   only shape the launch: (BN/TN) * (BM/TM) must be the number of
 *            work-items, 32 * (BM/WM) * (BN/WN)
 *   SPLIT    0: TF32 (one mma per step); 1: tf32x3 (three, fp32 accuracy)
 *   PROMOTE  1: each k step's mma chain starts from zero and its result is added
 *            to the accumulators with fp32 adds (default with SPLIT; see 3.)
 *   LDMATRIX 0: one scalar local load per fragment register; 1: ldmatrix
 *            (B transposed in local memory, see 5.)
 *   APAD, BPAD  floats of padding per local row of A and of B (B's rows are
 *            BN long, or BK long with LDMATRIX) */
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
#ifndef PROMOTE
#define PROMOTE SPLIT
#endif
#ifndef LDMATRIX
#define LDMATRIX 0
#endif
#ifndef APAD
#define APAD 4
#endif
#ifndef BPAD
#if LDMATRIX
#define BPAD 4
#else
#define BPAD 8
#endif
#endif

#define TC_TX (BN / TN)                        /* launch shape, dimension 0 */
#define TC_TY (BM / TM)                        /* launch shape, dimension 1 */
#define TC_THREADS (TC_TX * TC_TY)
#define TC_WARPS_N (BN / WN)
#define TC_WARPS ((BM / WM) * TC_WARPS_N)
#define TC_MI (WM / 16)                        /* mma tiles per warp along M */
#define TC_NI (WN / 8)                         /* ... along N */
#define TC_AS_LD (BK + APAD)                   /* floats per local row of A */
#define TC_AS_SIZE (BM * TC_AS_LD)             /* floats per stage */
#if LDMATRIX
#define TC_BS_LD (BK + BPAD)                   /* floats per local row of B, n-major */
#define TC_BS_SIZE (BN * TC_BS_LD)
/* A warp fetches B in slabs of TC_BKR rows x TC_BCQ float4s (see tc_b_coords) */
#define TC_BKR (BK % 16 == 0 ? 16 : 8)
#define TC_BCQ (32 / TC_BKR)
#else
#define TC_BS_LD (BN + BPAD)                   /* floats per local row of B */
#define TC_BS_SIZE (BK * TC_BS_LD)
#endif
#define TC_A_LOADS (BM * BK / 4 / TC_THREADS)  /* float4s of A per work-item per slice */
#define TC_B_LOADS (BK * BN / 4 / TC_THREADS)  /* float4s of B per work-item per slice */

#if SPLIT != 0 && SPLIT != 1
#error "gemm_tensor_core: SPLIT must be 0 (TF32) or 1 (tf32x3)"
#endif
#if PROMOTE != 0 && PROMOTE != 1
#error "gemm_tensor_core: PROMOTE must be 0 or 1"
#endif
#if BM % WM != 0 || BN % WN != 0 || WM % 16 != 0 || WN % 8 != 0 || BK % 8 != 0
#error "gemm_tensor_core: BM must be a multiple of WM, BN of WN, WM of 16, WN of 8, BK of 8"
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
#if LDMATRIX != 0 && LDMATRIX != 1
#error "gemm_tensor_core: LDMATRIX must be 0 or 1"
#endif
#if LDMATRIX && (BN / 4) % TC_BCQ != 0
#error "gemm_tensor_core: LDMATRIX=1 needs BN a multiple of 8 (BK a multiple of 16) or 16"
#endif
#if APAD % 4 != 0 || BPAD % 4 != 0
#error "gemm_tensor_core: APAD and BPAD must be multiples of 4 (float4 rows)"
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

/* Where float4 number i of this work-item's share of the B slice comes from:
 * row *k, columns *c .. *c+3 of the slice.  Row-major in local memory, a warp
 * takes 32 consecutive float4s of one row.  Transposed (LDMATRIX), a warp takes
 * TC_BKR rows x TC_BCQ float4s (with BK = 16: 16 rows x 32 bytes, whole
 * sectors), k fastest: its scalar transposing stores to Bt[c + q][k] then
 * fall on banks k + 16 * (float4 column) when TC_BS_LD is 4 mod 8, 32
 * different banks (2-way conflicts when BK is not a multiple of 16). */
inline void tc_b_coords(const int tid, const int i, int *k, int *c)
{
    const int e = tid + i * TC_THREADS;
#if LDMATRIX
    const int slab = e / 32, lane = e % 32;
    *k = (slab / (BN / 4 / TC_BCQ)) * TC_BKR + lane % TC_BKR;
    *c = ((slab % (BN / 4 / TC_BCQ)) * TC_BCQ + lane / TC_BKR) * 4;
#else
    *k = e / (BN / 4);
    *c = (e % (BN / 4)) * 4;
#endif
}

/* This work-item's share of one K slice into registers.  A and B point at the
 * slice's corner; rows_left, cols_left and k_left bound the guarded loads.
 * A: BK/4 float4s per row, consecutive work-items along a row; B: BN/4 per row. */
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
        int k, c;
        tc_b_coords(tid, i, &k, &c);
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

/* The fetched slice into one stage of local memory: A row-major, B row-major
 * or, with LDMATRIX, transposed (Bt[n][k] at bs[n * TC_BS_LD + k]). */
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
        int k, c;
        tc_b_coords(tid, i, &k, &c);
#if LDMATRIX
        const float4 v = tc_round4(rb[i]);
        __local float *const d = bs + c * TC_BS_LD + k;
        d[0 * TC_BS_LD] = v.x;
        d[1 * TC_BS_LD] = v.y;
        d[2 * TC_BS_LD] = v.z;
        d[3 * TC_BS_LD] = v.w;
#else
        *(__local float4 *)(bs + k * TC_BS_LD + c) = tc_round4(rb[i]);
#endif
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

/* One k step of one mma tile into d0..d3, from the fragments a[i], b[j] (and their
 * low parts al[i], bl[j] with SPLIT, the small terms first). */
#if SPLIT
#define TC_STEP(d0, d1, d2, d3)                                                          \
    MMA_M16N8K8_TF32(d0, d1, d2, d3, al[i][0], al[i][1], al[i][2], al[i][3], b[j][0], b[j][1]); \
    MMA_M16N8K8_TF32(d0, d1, d2, d3, a[i][0], a[i][1], a[i][2], a[i][3], bl[j][0], bl[j][1]); \
    MMA_M16N8K8_TF32(d0, d1, d2, d3, a[i][0], a[i][1], a[i][2], a[i][3], b[j][0], b[j][1])
#else
#define TC_STEP(d0, d1, d2, d3)                                                          \
    MMA_M16N8K8_TF32(d0, d1, d2, d3, a[i][0], a[i][1], a[i][2], a[i][3], b[j][0], b[j][1])
#endif

__kernel __attribute__((reqd_work_group_size(TC_TX, TC_TY, 1)))
void gemm_tensor_core(const int M, const int N, const int K, const float alpha,
                      __global const float *restrict A, const int offA, const int lda,
                      __global const float *restrict B, const int offB, const int ldb,
                      const float beta,
                      __global float *restrict C, const int offC, const int ldc)
{
    __local float4 As4[2 * TC_AS_SIZE / 4];   /* stage s, A(m, k) at [s*AS_SIZE + m*AS_LD + k] */
    __local float4 Bs4[2 * TC_BS_SIZE / 4];   /* stage s, B(k, n) at [s*BS_SIZE + k*BS_LD + n],
                                                 with LDMATRIX at [s*BS_SIZE + n*BS_LD + k] */
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

#if LDMATRIX
    /* The row this lane gives to ldmatrix, in a stage: row lane % 8 of matrix
     * lane / 8.  A: matrices (m 0-7, k 0-3), (m 8-15, k 0-3), (m 0-7, k 4-7),
     * (m 8-15, k 4-7) of a 16-row tile.  Bt: (n 0-7, k 0-3), (n 0-7, k 4-7) of one
     * n-tile, then the same of the next. */
    const int a_ldm = (wm0 + (lane & 7) + ((lane >> 3) & 1) * 8) * TC_AS_LD + (lane >> 4) * 4;
    const int b_ldm = (wn0 + (lane & 7) + (lane >> 4) * 8) * TC_BS_LD + ((lane >> 3) & 1) * 4;
#else
    /* Where this lane's fragments start in a stage: A(wm0 + g, t), B(t, wn0 + g). */
    const int a_frag = (wm0 + g) * TC_AS_LD + t;
    const int b_frag = t * TC_BS_LD + wn0 + g;
#endif

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

#if LDMATRIX
        __local const float *as = As + stage * TC_AS_SIZE;
        __local const float *bs = Bs + stage * TC_BS_SIZE;
#else
        __local const float *as = As + stage * TC_AS_SIZE + a_frag;
        __local const float *bs = Bs + stage * TC_BS_SIZE + b_frag;
#endif
#if CLGEMM_EMULATE_MMA
#pragma unroll 1
#else
#pragma unroll
#endif
        for (int kk = 0; kk < BK; kk += 8) {
            float a[TC_MI][4], b[TC_NI][2];
#if LDMATRIX
            /* One ldmatrix per A fragment, one per two B fragments. */
#pragma unroll
            for (int i = 0; i < TC_MI; ++i)
                LDMATRIX_X4(a[i][0], a[i][1], a[i][2], a[i][3], as,
                            a_ldm + i * 16 * TC_AS_LD + kk);
#pragma unroll
            for (int j = 0; j + 1 < TC_NI; j += 2)
                LDMATRIX_X4(b[j][0], b[j][1], b[j + 1][0], b[j + 1][1], bs,
                            b_ldm + j * 8 * TC_BS_LD + kk);
#if TC_NI % 2
            LDMATRIX_X2(b[TC_NI - 1][0], b[TC_NI - 1][1], bs,
                        b_ldm + (TC_NI - 1) * 8 * TC_BS_LD + kk);
#endif
#else
#pragma unroll
            for (int i = 0; i < TC_MI; ++i) {
                __local const float *p = as + i * 16 * TC_AS_LD + kk;
                a[i][0] = p[0];                    /* A[g][t]     */
                a[i][1] = p[8 * TC_AS_LD];         /* A[g+8][t]   */
                a[i][2] = p[4];                    /* A[g][t+4]   */
                a[i][3] = p[8 * TC_AS_LD + 4];     /* A[g+8][t+4] */
            }
#pragma unroll
            for (int j = 0; j < TC_NI; ++j) {
                __local const float *p = bs + kk * TC_BS_LD + j * 8;
                b[j][0] = p[0];                    /* B[t][g]     */
                b[j][1] = p[4 * TC_BS_LD];         /* B[t+4][g]   */
            }
#endif
#if SPLIT
            float al[TC_MI][4], bl[TC_NI][2];
#pragma unroll
            for (int i = 0; i < TC_MI; ++i)
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    const float hi = tf32_round(a[i][q]);
                    al[i][q] = tf32_round(a[i][q] - hi);
                    a[i][q] = hi;
                }
#pragma unroll
            for (int j = 0; j < TC_NI; ++j)
#pragma unroll
                for (int q = 0; q < 2; ++q) {
                    const float hi = tf32_round(b[j][q]);
                    bl[j][q] = tf32_round(b[j][q] - hi);
                    b[j][q] = hi;
                }
#endif
            /* Emulated, one copy of the barriers in the primitive: a CPU compiler
             * takes minutes over the fully unrolled 64. */
#if CLGEMM_EMULATE_MMA
#pragma unroll 1
#else
#pragma unroll
#endif
            for (int i = 0; i < TC_MI; ++i)
#if CLGEMM_EMULATE_MMA
#pragma unroll 1
#else
#pragma unroll
#endif
                for (int j = 0; j < TC_NI; ++j) {
#if PROMOTE
                    /* This k step's products summed by the tensor core from zero, then
                     * added to the running sum by ordinary fp32 adds (see PROMOTE). */
                    float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
                    TC_STEP(d0, d1, d2, d3);
                    acc[i][j][0] += d0;
                    acc[i][j][1] += d1;
                    acc[i][j][2] += d2;
                    acc[i][j][3] += d3;
#else
                    TC_STEP(acc[i][j][0], acc[i][j][1], acc[i][j][2], acc[i][j][3]);
#endif
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
