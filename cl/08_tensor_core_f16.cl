#include "common.h"
#include "mma/mma_16bit.h"

/* Step 8, 16-bit inputs: f16 and bf16 on tensor cores.
 *
 * Step 8 fed the tensor cores fp32 data rounded to TF32 on its way into
 * local memory.  Here the data are 16-bit from the start (clgemm --dtype f16
 * or bf16 rounds A and B on the host, once, and the reference is computed
 * from the rounded values), and one warp-wide mma.sync m16n8k16 multiplies
 * 16x16 by 16x8: 2048 multiply-adds per instruction, twice the k of TF32's
 * m16n8k8 at the same register cost.  C and the accumulation stay fp32.
 * What changes from 08_tensor_core.cl:
 *
 *  1. Half the bytes everywhere.  A and B are __global ushort (NVIDIA's
 *     OpenCL has no cl_khr_fp16, and none is needed: the tensor core reads
 *     bits, nothing here does arithmetic on a 16-bit value).  A 16-byte global
 *     load brings 8 values instead of 4, a K slice of BK = 32 takes the local
 *     memory that BK = 16 took in fp32, and global and local traffic per
 *     multiply-add are halved.
 *
 *  2. Fragments are read as 32-bit pairs.  Every fragment register holds two
 *     values adjacent in k (mma16.h), so local memory stores k pairs: A
 *     row-major as it comes (a pair is two neighbouring halves of a row), B as
 *     rows of pairs, uint (k, k+1) at column n, interleaved from two loaded
 *     rows in registers before the store.  Each fragment register is then one
 *     32-bit local load, none of them split or rounded: per 16-wide k step a
 *     64 x 64 warp tile issues 32 loads for 32 mma = 65536 multiply-adds,
 *     twice step 8's work per load of the same 4 bytes.  Rows of A are BK/2 + 4 uints long and
 *     rows of B BN + 8, so the 32 addresses of each fragment load fall in 32
 *     banks.
 *
 *  3. Precision.  f16 keeps 11 significant bits (range 6e-8 .. 65504), bf16 8
 *     bits with fp32's range.  The product of two such values is exact in
 *     fp32, so against a reference made from the same rounded inputs the
 *     error is that of the fp32 accumulation alone; what is lost to the
 *     16-bit format (2^-11 and 2^-8 relative per input) is lost on the host,
 *     in plain sight, before anything runs.
 *
 *  4. The same pipeline and the same emulation idea as step 8: the next K
 *     slice's global loads fly during the mma, two local stages, one barrier
 *     per slice; CLGEMM_EMULATE_MMA=1 swaps the inline PTX for portable
 *     OpenCL C with the same per-lane fragment semantics (mma16.h), so every
 *     index here is tested on a CPU.
 *
 * Work-group shape as in step 8: (BN/TN) x (BM/TM) work-items, used as
 * (BM/WM)*(BN/WN) warps.  Edge groups, and the last K slice when BK does not
 * divide K, load zeros outside the operands.  Needs offA, offB, lda, ldb
 * multiples of 8 (16-byte loads of 8 values) and offC, ldc even.
 *
 * Measured on an NVIDIA H100 (OpenCL, driver 580.159.04), 2026-11-22, at the
 * defaults (128 x 128 group tile, 64 x 64 warp tiles, BK = 32; 244 registers,
 * no spills), same process as CLBlast on the same data in fp32:
 *     4096^3  f16 259.9 TFLOP/s (8.2x CLBlast), bf16 262.1; error 6e-7
 *     8192^3  f16 254.8, bf16 262.5      (cuBLAS f16 708 / 746, bf16 730 / 774)
 * That is 2x step 8's TF32 (133), as the doubled k per mma promises, and 41%
 * of what a loop of independent mma.sync reaches from OpenCL (640): the same
 * limits as step 8 (one 32-bit local load per fragment register, two groups
 * per SM at 244 registers).  BK = 16 (212 registers) measured 197.
 */

/* Parameters (all overridable with -D):
 *   BM x BN  the block of C per work-group
 *   BK       the K slice per pipeline stage (multiple of 16)
 *   WM x WN  the block of C per warp (multiples of 16 and 8)
 *   TM, TN   only shape the launch: (BN/TN) * (BM/TM) must be the number of
 *            work-items, 32 * (BM/WM) * (BN/WN)
 *   BF16     0: A and B hold IEEE f16 bits; 1: bfloat16 bits
 *   APAD, BPAD  uints of padding per local row of A and of B */
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 32
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
#ifndef BF16
#define BF16 0
#endif
#ifndef APAD
#define APAD 4
#endif
#ifndef BPAD
#define BPAD 8
#endif

#define TC_TX (BN / TN)                          /* launch shape, dimension 0 */
#define TC_TY (BM / TM)                          /* launch shape, dimension 1 */
#define TC_THREADS (TC_TX * TC_TY)
#define TC_WARPS_N (BN / WN)
#define TC_WARPS ((BM / WM) * TC_WARPS_N)
#define TC_MI (WM / 16)                          /* mma tiles per warp along M */
#define TC_NI (WN / 8)                           /* ... along N */
#define TC_AS_LD (BK / 2 + APAD)                 /* uints (k pairs) per local row of A */
#define TC_BS_LD (BN + BPAD)                     /* uints per local row of k pairs of B */
#define TC_AS_SIZE (BM * TC_AS_LD)               /* uints per stage */
#define TC_BS_SIZE (BK / 2 * TC_BS_LD)
#define TC_A_LOADS (BM * BK / 8 / TC_THREADS)    /* 8-value loads of A per work-item per slice */
#define TC_B_LOADS (BK * BN / 16 / TC_THREADS)   /* 2 x 8 blocks of B per work-item per slice */

#if BF16 != 0 && BF16 != 1
#error "gemm_tensor_core_f16: BF16 must be 0 (f16) or 1 (bf16)"
#endif
#if BM % WM != 0 || BN % WN != 0 || WM % 16 != 0 || WN % 8 != 0 || BK % 16 != 0
#error "gemm_tensor_core_f16: BM must be a multiple of WM, BN of WN, WM of 16, WN of 8, BK of 16"
#endif
#if BM % TM != 0 || BN % TN != 0
#error "gemm_tensor_core_f16: BM must be a multiple of TM and BN of TN"
#endif
#if TC_THREADS != 32 * TC_WARPS
#error "gemm_tensor_core_f16: (BN/TN)*(BM/TM) must equal 32*(BM/WM)*(BN/WN), one work-item per lane"
#endif
#if (BM * BK / 8) % TC_THREADS != 0 || (BK * BN / 16) % TC_THREADS != 0 || TC_A_LOADS < 1 || TC_B_LOADS < 1
#error "gemm_tensor_core_f16: BM*BK/8 and BK*BN/16 must be positive multiples of the work-group size"
#endif
#if APAD % 4 != 0 || BPAD % 4 != 0
#error "gemm_tensor_core_f16: APAD and BPAD must be multiples of 4 (16-byte local stores)"
#endif
#if 4 * (2 * (TC_AS_SIZE + TC_BS_SIZE) + CLGEMM_EMULATE_MMA * TC_WARPS * MMA16_SCRATCH_UINTS) > 49152
#error "gemm_tensor_core_f16: two K slices of A and B (plus emulation scratch) exceed 48 KiB of local memory"
#endif

/* The helpers take private arrays by pointer: they must be inlined, or the
 * arrays live in memory (a plain C99 `inline` may also be left to an external
 * definition that does not exist). */
#ifndef TC16_INLINE
#define TC16_INLINE static inline __attribute__((always_inline))
#endif

#if BF16
#define TC16_MMA MMA_M16N8K16_BF16
#else
#define TC16_MMA MMA_M16N8K16_F16
#endif

/* Values i and i+1 of p as a pair (i in the low half); those at or past
 * `valid` read as zero (the bits of +0 in f16 and bf16 alike). */
TC16_INLINE uint tc16_pair(__global const ushort *p, const int i, const int valid)
{
    const uint lo = i < valid ? (uint)p[i] : 0u;
    const uint hi = i + 1 < valid ? (uint)p[i + 1] : 0u;
    return lo | hi << 16;
}

/* Eight consecutive 16-bit values at p (16-byte aligned) as four pairs;
 * guarded, only the first `valid` of them exist (valid may be <= 0). */
TC16_INLINE uint4 tc16_load8(__global const ushort *p, const int valid, const bool guarded)
{
    if (!guarded || valid >= 8)
        return *(__global const uint4 *)p;
    return (uint4)(tc16_pair(p, 0, valid), tc16_pair(p, 2, valid), tc16_pair(p, 4, valid),
                   tc16_pair(p, 6, valid));
}

/* This work-item's share of one K slice into registers.  A and B point at the
 * slice's corner; rows_left, cols_left and k_left bound the guarded loads.
 * A: BK/8 loads per row, consecutive work-items along a row.  B: blocks of two
 * rows (k, k+1) by 8 columns, consecutive work-items along the rows, so that
 * the pairs (k, k+1) the fragments want can be formed in registers. */
TC16_INLINE void tc16_fetch(uint4 *ra, uint4 *rb, __global const ushort *A, const int lda,
                       __global const ushort *B, const int ldb, const int rows_left,
                       const int cols_left, const int k_left, const int tid, const bool guarded)
{
#pragma unroll
    for (int i = 0; i < TC_A_LOADS; ++i) {
        const int e = tid + i * TC_THREADS;
        const int r = e / (BK / 8), k = (e % (BK / 8)) * 8;
        ra[i] = tc16_load8(A + r * lda + k, r < rows_left ? k_left - k : 0, guarded);
    }
#pragma unroll
    for (int i = 0; i < TC_B_LOADS; ++i) {
        const int e = tid + i * TC_THREADS;
        const int k = (e / (BN / 8)) * 2, c = (e % (BN / 8)) * 8;
        rb[2 * i] = tc16_load8(B + k * ldb + c, k < k_left ? cols_left - c : 0, guarded);
        rb[2 * i + 1] =
            tc16_load8(B + (k + 1) * ldb + c, k + 1 < k_left ? cols_left - c : 0, guarded);
    }
}

/* Pairs across two rows: (x.lo, y.lo) and (x.hi, y.hi), first value low. */
TC16_INLINE uint tc16_lows(const uint x, const uint y) { return (x & 0xffffu) | (y << 16); }
TC16_INLINE uint tc16_highs(const uint x, const uint y) { return (x >> 16) | (y & 0xffff0000u); }

/* The fetched slice into one stage of local memory: A as it came (rows of k
 * pairs), B interleaved so that uint (p, n) holds B(2p, n) and B(2p+1, n). */
TC16_INLINE void tc16_stash(__local uint *as, __local uint *bs, const uint4 *ra, const uint4 *rb,
                       const int tid)
{
#pragma unroll
    for (int i = 0; i < TC_A_LOADS; ++i) {
        const int e = tid + i * TC_THREADS;
        const int r = e / (BK / 8), k = (e % (BK / 8)) * 8;
        *(__local uint4 *)(as + r * TC_AS_LD + k / 2) = ra[i];
    }
#pragma unroll
    for (int i = 0; i < TC_B_LOADS; ++i) {
        const int e = tid + i * TC_THREADS;
        const int p = e / (BN / 8), c = (e % (BN / 8)) * 8;
        const uint4 u = rb[2 * i], v = rb[2 * i + 1];   /* rows 2p and 2p+1, columns c.. c+7 */
        __local uint *q = bs + p * TC_BS_LD + c;
        *(__local uint4 *)q = (uint4)(tc16_lows(u.x, v.x), tc16_highs(u.x, v.x),
                                      tc16_lows(u.y, v.y), tc16_highs(u.y, v.y));
        *(__local uint4 *)(q + 4) = (uint4)(tc16_lows(u.z, v.z), tc16_highs(u.z, v.z),
                                            tc16_lows(u.w, v.w), tc16_highs(u.w, v.w));
    }
}

/* Two neighbouring results of one row, (r, c) and (r, c+1), c even. */
TC16_INLINE void tc16_store2(__global float *C, const int ldc, const int r, const int c,
                        const float x, const float y, const float alpha, const float beta,
                        const int rows_left, const int cols_left, const bool guarded)
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
void gemm_tensor_core_f16(const int M, const int N, const int K, const float alpha,
                          __global const ushort *restrict A, const int offA, const int lda,
                          __global const ushort *restrict B, const int offB, const int ldb,
                          const float beta,
                          __global float *restrict C, const int offC, const int ldc)
{
    __local uint4 As4[2 * TC_AS_SIZE / 4];   /* stage s, A(m, 2p..2p+1) at [s*AS_SIZE + m*AS_LD + p] */
    __local uint4 Bs4[2 * TC_BS_SIZE / 4];   /* stage s, B(2p..2p+1, n) at [s*BS_SIZE + p*BS_LD + n] */
    __local uint *const As = (__local uint *)As4;
    __local uint *const Bs = (__local uint *)Bs4;

    const int tid = get_local_id(1) * TC_TX + get_local_id(0);
    MMA16_WARP_SETUP(tid, TC_WARPS);
    const int warp = tid / MMA16_WARP, lane = tid % MMA16_WARP;
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

    uint4 ra[TC_A_LOADS], rb[2 * TC_B_LOADS];
    if (edge || K < BK)
        tc16_fetch(ra, rb, A, lda, B, ldb, rows_left, cols_left, K, tid, true);
    else
        tc16_fetch(ra, rb, A, lda, B, ldb, BM, BN, BK, tid, false);
    tc16_stash(As, Bs, ra, rb, tid);
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Where this lane's fragments start in a stage: pair (wm0 + g, t) of A,
     * pair row t of B at column wn0 + g. */
    const int a_frag = (wm0 + g) * TC_AS_LD + t;
    const int b_frag = t * TC_BS_LD + wn0 + g;

    int stage = 0;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const int k_next = k0 + BK;
        const bool more = k_next < K;
        if (more) {   /* the next slice's loads fly during the mma below */
            if (edge || K - k_next < BK)
                tc16_fetch(ra, rb, A + k_next, lda, B + k_next * ldb, ldb, rows_left, cols_left,
                           K - k_next, tid, true);
            else
                tc16_fetch(ra, rb, A + k_next, lda, B + k_next * ldb, ldb, BM, BN, BK, tid,
                           false);
        }

        __local const uint *as = As + stage * TC_AS_SIZE + a_frag;
        __local const uint *bs = Bs + stage * TC_BS_SIZE + b_frag;
#if CLGEMM_EMULATE_MMA
#pragma unroll 1
#else
#pragma unroll
#endif
        for (int kk = 0; kk < BK / 2; kk += 8) {   /* kk counts k pairs: 16 values per step */
            uint a[TC_MI][4], b[TC_NI][2];
#pragma unroll
            for (int i = 0; i < TC_MI; ++i) {
                __local const uint *p = as + i * 16 * TC_AS_LD + kk;
                a[i][0] = p[0];                    /* A[g][2t, 2t+1]       */
                a[i][1] = p[8 * TC_AS_LD];         /* A[g+8][2t, 2t+1]     */
                a[i][2] = p[4];                    /* A[g][2t+8, 2t+9]     */
                a[i][3] = p[8 * TC_AS_LD + 4];     /* A[g+8][2t+8, 2t+9]   */
            }
#pragma unroll
            for (int j = 0; j < TC_NI; ++j) {
                __local const uint *p = bs + kk * TC_BS_LD + j * 8;
                b[j][0] = p[0];                    /* B[2t, 2t+1][g]       */
                b[j][1] = p[4 * TC_BS_LD];         /* B[2t+8, 2t+9][g]     */
            }
#if CLGEMM_EMULATE_MMA   /* one copy of the emulation's barriers: CPU compilers choke on 64 */
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
                for (int j = 0; j < TC_NI; ++j)
                    TC16_MMA(acc[i][j][0], acc[i][j][1], acc[i][j][2], acc[i][j][3],
                             a[i][0], a[i][1], a[i][2], a[i][3], b[j][0], b[j][1]);
        }

        /* The other stage was last read before the previous barrier. */
        if (more)
            tc16_stash(As + (stage ^ 1) * TC_AS_SIZE, Bs + (stage ^ 1) * TC_BS_SIZE, ra, rb, tid);
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
                tc16_store2(C, ldc, r, c, acc[i][j][0], acc[i][j][1], alpha, beta, BM, BN, false);
                tc16_store2(C, ldc, r + 8, c, acc[i][j][2], acc[i][j][3], alpha, beta, BM, BN,
                            false);
            } else {
                tc16_store2(C, ldc, r, c, acc[i][j][0], acc[i][j][1], alpha, beta, rows_left,
                            cols_left, true);
                tc16_store2(C, ldc, r + 8, c, acc[i][j][2], acc[i][j][3], alpha, beta,
                            rows_left, cols_left, true);
            }
        }
}
