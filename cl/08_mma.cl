#include "common.h"
#include "mma/mma_sync.h"

/* Step 8: tensor cores, through mma.sync.
 *
 * Step 7 is near the end of what FMA units give: every multiply-add is an instruction.
 * Tensor cores multiply whole tiles per instruction: one warp-wide mma.sync m16n8k8 does
 * 16*8*8 = 1024 multiply-adds, and an SM runs several of them at once.  A and B hold
 * -DDTYPE=0 fp32 (fed to the tensor core as TF32), 1 f16 or 2 bf16; C and the sums are fp32
 * in all three.  Measured: docs/results.md, step 8.  What changes from step 7:
 *
 *  1. The inner product.  A warp owns a WM x WN tile of C, held as (WM/16) x (WN/8) mma
 *     accumulator tiles: each lane keeps 4 entries of each, where the PTX fragment layout
 *     says (mma/mma_sync.h).  Per k step the warp loads one A fragment per 16 rows and one
 *     B fragment per 8 columns from local memory and issues (WM/16)*(WN/8) mma: a 64 x 64
 *     warp tile turns 32 scalar local loads into 32 mma = 32768 multiply-adds, where step 7
 *     spent one local load per 16 FMAs.  The warp tile is the lever: a wider one needs
 *     fewer local loads per mma, which matters more than occupancy, until the registers
 *     run out.
 *
 *  2. The local layout follows the fragments, not the FMA loop.  A stays row-major (no
 *     transposition): a lane reads A[g][t], 8 rows x 4 columns per instruction; with rows
 *     BK + 4 words long those 32 addresses fall in 32 different banks.  B rows are BN + 8
 *     words long, so B[t][g] (4 rows x 8 columns) is conflict-free as well.  Global loads
 *     stay 16 bytes wide, with the next K slice in registers during the arithmetic and two
 *     local stages, as in step 7 (one barrier per K slice).
 *
 *  3. Rounding is ours.  TF32 keeps 10 of fp32's 23 mantissa bits (fp32 range).  Inputs
 *     are rounded to tf32 (to nearest, ties away, like cvt.rna.tf32.f32) once, on their way
 *     into local memory; products of tf32 values are exact in fp32.  SPLIT=1 buys fp32-level
 *     accuracy back with three mma per step (tf32x3): x = hi + lo with hi = tf32(x),
 *     lo = tf32(x - hi), and a*b ~ a_hi*b_hi + a_hi*b_lo + a_lo*b_hi (the dropped a_lo*b_lo
 *     is below fp32 rounding).  Local memory then holds plain fp32 and each fragment is
 *     split as it is loaded.  The split alone is not enough: the tensor core's own additions
 *     do not round to nearest, and over thousands of them the bias adds up to many times
 *     step 7's error.  So with PROMOTE (on by default with SPLIT) each k step's three
 *     products are summed by the tensor core from zero, and that partial sum of 8 terms is
 *     added to the accumulator by an fp32 add, which rounds to nearest: the long sum is then
 *     an ordinary fp32 sum, as in step 7.
 *
 *  4. An emulation.  Each primitive is one macro (mma/mma_sync.h): inline PTX on NVIDIA,
 *     or with CLGEMM_EMULATE_MMA=1 portable OpenCL C that reproduces the per-lane fragment
 *     semantics through local memory and barriers.  The emulation is slow, but it lets
 *     every index around the primitive (fragments, warp tiles, edges) be tested on a CPU,
 *     so the kernel is written to call the macros uniformly in the whole work-group.
 *
 *  5. Fragment loads by the matrix (LDMATRIX=1, fp32 data; off by default: on the H100 it
 *     is slower, for reasons not yet understood).  A scalar local load brings one word per
 *     lane, so the 4 + 2 fragment registers per mma tile cost one load instruction each and
 *     the load pipe, not the tensor core, sets the pace.  ldmatrix brings four 8 x 8
 *     matrices of 16-bit values, one 16-byte row per lane address; with 32-bit data a matrix
 *     is 8 rows x 4 floats and its words are exactly the tf32 fragments: one ldmatrix.x4 is
 *     a whole A fragment, and one gives the B fragments of two n-tiles if B is stored n-major
 *     (Bt[n][k]).  A 64 x 64 warp tile then needs 8 load instructions per k step instead of
 *     32, into the same registers.  Rows are 16-byte aligned, and the 8 rows one matrix
 *     reads lie BK + 4 floats apart (8 different 16-byte bank groups).  B is transposed on
 *     its way into local memory; to keep those scalar stores conflict-free each warp fetches
 *     B as 16 rows x 2 float4s (k fastest across lanes: whole 32-byte sectors).
 *
 * 16-bit data (DTYPE 1, 2: clgemm --dtype f16 / bf16 rounds A and B on the host, once, and
 * the reference is computed from the rounded values).  mma.sync m16n8k16 multiplies 16x16
 * by 16x8, twice the k of m16n8k8 at the same register cost.  What changes is only how
 * values become 32-bit words; everything else above is shared:
 *   - A and B are __global ushort.  NVIDIA's OpenCL has no cl_khr_fp16, and none is needed:
 *     the tensor core reads bits, nothing here does arithmetic on a 16-bit value.  A 16-byte
 *     load brings 8 values instead of 4, a K slice of BK = 32 takes the local memory that
 *     BK = 16 takes in fp32, and global and local traffic per multiply-add halve.
 *   - A fragment register holds two values adjacent in k, so local memory holds k pairs:
 *     A as it comes (two neighbours in a row), B interleaved from two loaded rows before
 *     the store.  Counted in words (one float, or one k pair) the fragment layouts of
 *     m16n8k8 and m16n8k16 are the same, so the local layout, the fragment loads (one
 *     32-bit load per register, twice the work per load) and the k loop (8 words per mma)
 *     are step 8's.
 *   - Nothing is rounded on the device: the product of two f16 or bf16 values is exact in
 *     fp32, so against a reference from the same inputs the error is that of the fp32
 *     accumulation; what the 16-bit format loses is lost on the host, in plain sight.
 *
 * Work-group shape: the host launches (BN/TN) x (BM/TM) work-items; this kernel only uses
 * their count, (BM/WM)*(BN/WN) warps, renumbered linearly (lane = linear id % 32, which is
 * how NVIDIA forms warps).  Interior groups use unguarded 16-byte loads and float2 stores;
 * edge groups, and the last K slice when BK does not divide K, load zeros outside the
 * operands, so neither NaN padding nor C (when beta = 0) is ever read.  Needs offA, offB,
 * lda, ldb multiples of 4 values (fp32) or 8 (16-bit), offC and ldc even.
 */

/* Parameters (all overridable with -D):
 *   DTYPE    element type of A and B: 0 fp32 (TF32 products), 1 f16, 2 bf16
 *   BM x BN  the block of C per work-group
 *   BK       the K slice per pipeline stage (multiple of 8 values, 16 with 16-bit data)
 *   WM x WN  the block of C per warp (multiples of 16 and 8)
 *   TM, TN   only shape the launch: (BN/TN) * (BM/TM) must be the number of
 *            work-items, 32 * (BM/WM) * (BN/WN)
 *   SPLIT    (fp32) 0: TF32, one mma per step; 1: tf32x3, three (fp32 accuracy)
 *   PROMOTE  1: each k step's mma chain starts from zero and its result is added
 *            to the accumulators with fp32 adds (default with SPLIT; see 3.)
 *   LDMATRIX (fp32) 0: one scalar local load per fragment register; 1: ldmatrix
 *            (B transposed in local memory, see 5.)
 *   APAD, BPAD  words of padding per local row of A and of B (B's rows are
 *            BN long, or BK long with LDMATRIX) */
#ifndef DTYPE
#define DTYPE 0
#endif
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK (DTYPE ? 32 : 16)
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN (DTYPE ? 64 : 32)
#endif
#ifndef TM
#define TM (DTYPE ? 32 : 16)
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
#define BPAD (LDMATRIX ? 4 : 8)
#endif

/* A word of local memory, and a fragment register, is one fp32 value or one k pair. */
#if DTYPE == 0
typedef float tc_in;                           /* the elements of A and B */
typedef float tc_word;
typedef float4 tc_word4;
#define TC_KPW 1                               /* values of k per word */
#define TC_MMA MMA_M16N8K8_TF32
#else
typedef ushort tc_in;
typedef uint tc_word;
typedef uint4 tc_word4;
#define TC_KPW 2
#if DTYPE == 1
#define TC_MMA MMA_M16N8K16_F16
#else
#define TC_MMA MMA_M16N8K16_BF16
#endif
#endif
#define TC_VEC (4 * TC_KPW)                    /* values per 16-byte global load */

#define TC_TX (BN / TN)                        /* launch shape, dimension 0 */
#define TC_TY (BM / TM)                        /* launch shape, dimension 1 */
#define TC_THREADS (TC_TX * TC_TY)
#define TC_WARPS_N (BN / WN)
#define TC_WARPS ((BM / WM) * TC_WARPS_N)
#define TC_MI (WM / 16)                        /* mma tiles per warp along M */
#define TC_NI (WN / 8)                         /* ... along N */
#define TC_AS_LD (BK / TC_KPW + APAD)          /* words per local row of A */
#define TC_AS_SIZE (BM * TC_AS_LD)             /* words per stage */
#if LDMATRIX
#define TC_BS_LD (BK + BPAD)                   /* floats per local row of B, n-major */
#define TC_BS_SIZE (BN * TC_BS_LD)
/* A warp fetches B in slabs of TC_BKR rows x TC_BCQ float4s (see tc_b_coords) */
#define TC_BKR (BK % 16 == 0 ? 16 : 8)
#define TC_BCQ (32 / TC_BKR)
#else
#define TC_BS_LD (BN + BPAD)                   /* words per local row of B (k or k pairs) */
#define TC_BS_SIZE (BK / TC_KPW * TC_BS_LD)
#endif
#define TC_A_LOADS (BM * BK / TC_VEC / TC_THREADS)  /* 16-byte loads of A per work-item */
/* B comes in groups of TC_KPW rows (the k pairs) x TC_VEC columns, one load per row */
#define TC_B_LOADS (BK * BN / (TC_KPW * TC_VEC) / TC_THREADS)

#if DTYPE != 0 && DTYPE != 1 && DTYPE != 2
#error "gemm_mma: DTYPE must be 0 (fp32 as TF32), 1 (f16) or 2 (bf16)"
#endif
#if SPLIT != 0 && SPLIT != 1
#error "gemm_mma: SPLIT must be 0 (TF32) or 1 (tf32x3)"
#endif
#if PROMOTE != 0 && PROMOTE != 1
#error "gemm_mma: PROMOTE must be 0 or 1"
#endif
#if LDMATRIX != 0 && LDMATRIX != 1
#error "gemm_mma: LDMATRIX must be 0 or 1"
#endif
#if DTYPE != 0 && (SPLIT || LDMATRIX)
#error "gemm_mma: SPLIT and LDMATRIX are for fp32 data (DTYPE=0)"
#endif
#if BM % WM != 0 || BN % WN != 0 || WM % 16 != 0 || WN % 8 != 0 || BK % (8 * TC_KPW) != 0
#error "gemm_mma: BM must be a multiple of WM, BN of WN, WM of 16, WN of 8, BK of the mma's k"
#endif
#if BM % TM != 0 || BN % TN != 0
#error "gemm_mma: BM must be a multiple of TM and BN of TN"
#endif
#if TC_THREADS != 32 * TC_WARPS
#error "gemm_mma: (BN/TN)*(BM/TM) must equal 32*(BM/WM)*(BN/WN), one work-item per lane"
#endif
#if (BM * BK / TC_VEC) % TC_THREADS != 0 || TC_A_LOADS < 1 || \
    (BK * BN / (TC_KPW * TC_VEC)) % TC_THREADS != 0 || TC_B_LOADS < 1
#error "gemm_mma: the 16-byte loads of A, and of B (in pairs with 16-bit data), must be positive multiples of the work-group size"
#endif
#if LDMATRIX && (BN / 4) % TC_BCQ != 0
#error "gemm_mma: LDMATRIX=1 needs BN a multiple of 8 (BK a multiple of 16) or 16"
#endif
#if APAD % 4 != 0 || BPAD % 4 != 0
#error "gemm_mma: APAD and BPAD must be multiples of 4 (16-byte local rows)"
#endif
#if 4 * (2 * (TC_AS_SIZE + TC_BS_SIZE) + CLGEMM_EMULATE_MMA * TC_WARPS * MMA_SCRATCH_WORDS) > 49152
#error "gemm_mma: two K slices of A and B (plus emulation scratch) exceed 48 KiB of local memory"
#endif

#include "mma/mma_sync_tiles.h"

/* One k step of one mma tile into d0..d3, from the fragments a[i], b[j] (and their
 * low parts al[i], bl[j] with SPLIT, the small terms first). */
#if SPLIT
#define TC_STEP(d0, d1, d2, d3)                                                          \
    TC_MMA(d0, d1, d2, d3, al[i][0], al[i][1], al[i][2], al[i][3], b[j][0], b[j][1]);    \
    TC_MMA(d0, d1, d2, d3, a[i][0], a[i][1], a[i][2], a[i][3], bl[j][0], bl[j][1]);      \
    TC_MMA(d0, d1, d2, d3, a[i][0], a[i][1], a[i][2], a[i][3], b[j][0], b[j][1])
#else
#define TC_STEP(d0, d1, d2, d3)                                                          \
    TC_MMA(d0, d1, d2, d3, a[i][0], a[i][1], a[i][2], a[i][3], b[j][0], b[j][1])
#endif

__kernel __attribute__((reqd_work_group_size(TC_TX, TC_TY, 1)))
void gemm_mma(const int M, const int N, const int K, const float alpha,
              __global const tc_in *restrict A, const int offA, const int lda,
              __global const tc_in *restrict B, const int offB, const int ldb,
              const float beta,
              __global gemm_c_t *restrict C, const int offC, const int ldc,
              __global const gemm_c_t *restrict bias, const int offBias,
              const int strideA, const int strideB, const int strideC)
{
    GEMM_BATCH_ENTRY(A, B, C);
    /* Stage s: word (m, k) of A at [s*AS_SIZE + m*AS_LD + k], word (k, n) of B at
     * [s*BS_SIZE + k*BS_LD + n], with LDMATRIX at [s*BS_SIZE + n*BS_LD + k]; k counts words. */
    __local tc_word4 As4[2 * TC_AS_SIZE / 4];
    __local tc_word4 Bs4[2 * TC_BS_SIZE / 4];
    __local tc_word *const As = (__local tc_word *)As4;
    __local tc_word *const Bs = (__local tc_word *)Bs4;

    const int tid = get_local_id(1) * TC_TX + get_local_id(0);
    MMA_WARP_SETUP(tid, TC_WARPS);
    const int warp = tid / MMA_WARP, lane = tid % MMA_WARP;
    const int g = lane >> 2, t = lane & 3;
    const int wm0 = (warp / TC_WARPS_N) * WM, wn0 = (warp % TC_WARPS_N) * WN;

    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
    const int rows_left = M - row0, cols_left = N - col0;
    A += offA + row0 * lda;
    B += offB + col0;
    GEMM_C_MOVE(row0, col0);
    GEMM_BIAS_MOVE(row0, col0);
    const bool edge = rows_left < BM || cols_left < BN;

    float acc[TC_MI][TC_NI][4];
#pragma unroll
    for (int i = 0; i < TC_MI; ++i)
#pragma unroll
        for (int j = 0; j < TC_NI; ++j)
#pragma unroll
            for (int q = 0; q < 4; ++q)
                acc[i][j][q] = 0.0f;

    tc_word4 ra[TC_A_LOADS], rb[TC_KPW * TC_B_LOADS];
    if (edge || K < BK)
        tc_fetch(ra, rb, A, lda, B, ldb, rows_left, cols_left, K, tid, true);
    else
        tc_fetch(ra, rb, A, lda, B, ldb, BM, BN, BK, tid, false);
    tc_stash(As, Bs, ra, rb, tid);
    barrier(CLK_LOCAL_MEM_FENCE);

#if LDMATRIX
    /* The row this lane gives to ldmatrix, in a stage: row lane % 8 of matrix lane / 8.
     * A: matrices (m 0-7, k 0-3), (m 8-15, k 0-3), (m 0-7, k 4-7), (m 8-15, k 4-7) of a
     * 16-row tile.  Bt: (n 0-7, k 0-3), (n 0-7, k 4-7) of one n-tile, then the next's. */
    const int a_ldm = (wm0 + (lane & 7) + ((lane >> 3) & 1) * 8) * TC_AS_LD + (lane >> 4) * 4;
    const int b_ldm = (wn0 + (lane & 7) + (lane >> 4) * 8) * TC_BS_LD + ((lane >> 3) & 1) * 4;
#else
    /* Where this lane's fragments start in a stage: word (wm0 + g, t) of A, word (t, wn0 + g)
     * of B. */
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
        __local const tc_word *as = As + stage * TC_AS_SIZE + a_frag;
        __local const tc_word *bs = Bs + stage * TC_BS_SIZE + b_frag;
#endif
#if CLGEMM_EMULATE_MMA
#pragma unroll 1
#else
#pragma unroll
#endif
        for (int kk = 0; kk < BK / TC_KPW; kk += 8) {   /* kk counts words: 8 per mma */
            tc_word a[TC_MI][4], b[TC_NI][2];
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
            /* Words (values for fp32, k pairs for 16-bit data), as mma/mma_sync.h lists. */
#pragma unroll
            for (int i = 0; i < TC_MI; ++i) {
                __local const tc_word *p = as + i * 16 * TC_AS_LD + kk;
                a[i][0] = p[0];                    /* A[g][t]     */
                a[i][1] = p[8 * TC_AS_LD];         /* A[g+8][t]   */
                a[i][2] = p[4];                    /* A[g][t+4]   */
                a[i][3] = p[8 * TC_AS_LD + 4];     /* A[g+8][t+4] */
            }
#pragma unroll
            for (int j = 0; j < TC_NI; ++j) {
                __local const tc_word *p = bs + kk * TC_BS_LD + j * 8;
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
                     * added to the running sum by ordinary fp32 adds (see 3.). */
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
                gemm_store2(C, ldc, bias, r, c, acc[i][j][0], acc[i][j][1], alpha, beta, BM, BN, false);
                gemm_store2(C, ldc, bias, r + 8, c, acc[i][j][2], acc[i][j][3],
                            alpha, beta, BM, BN, false);
            } else {
                gemm_store2(C, ldc, bias, r, c, acc[i][j][0], acc[i][j][1], alpha, beta, rows_left,
                          cols_left, true);
                gemm_store2(C, ldc, bias, r + 8, c, acc[i][j][2], acc[i][j][3], alpha, beta, rows_left,
                          cols_left, true);
            }
        }
}
