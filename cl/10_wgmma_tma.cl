#include "common.h"
#include "mma/wgmma.h"
#include "mma/tma.h"

/* Step 10: the copies of step 9 (09_wgmma_f16.cl, read that first) handed to Hopper's tensor
 * memory accelerator, and the work-group split into a producer and consumers.  16-bit
 * inputs (f16 or bf16 bits as ushort, BF16 = 0 or 1), fp32 accumulation, C in fp32.
 *
 * What step 9 left: every work-item computed source addresses, issued its 16-byte cp.async
 * copies with the swizzle applied by hand, waited for them, and a barrier per K slice told
 * everybody the slice was there.  At 128 x 128 x 32 per slice that ran at about 31% of the
 * tensor cores' peak, whatever the tile: the consumers of a slice also had to be its
 * producers, and a barrier joined them at every step.
 *
 * What changes:
 *  1. One extra warp produces.  Its first work-item issues, per K slice, one TMA copy
 *     (cp.async.bulk.tensor) for the BM x BK box of A and one per 64 columns of B; the copy
 *     engine writes them in wgmma's swizzled layout and zero-fills what lies outside the
 *     matrices, so there are no edge cases in the copies at all.
 *  2. mbarriers instead of barriers.  STAGES slices live in local memory; each has a "full"
 *     mbarrier (the copy engine counts the slice's bytes on it) and an "empty" one (each
 *     consumer warp arrives when its wgmma on the slice has completed).  The producer waits
 *     for "empty" before refilling a slot; the consumers wait for "full" before reading it.
 *     Nobody else waits for anybody: the producer runs up to STAGES slices ahead, and the
 *     two consumer warpgroups drift freely.
 *  3. The tensor maps (host/lib/tensor_map.h) describe A (M x K, row-major) and B (K x N,
 *     row-major); the host encodes them with libcuda, and wgmma_tma_set_maps below puts the
 *     buffers' addresses in on the device.
 *
 * Local layout (the swizzled layouts of step 9 with the swizzle width tied to what one box
 * row holds): A's box is BM rows x BK values, rows of 2 BK bytes, swizzled at 2 BK bytes
 * (BK = 16, 32 or 64: the 32-, 64- and 128-byte swizzles); B's boxes are BK k-rows x 64 n
 * (128 bytes, the 128-byte swizzle), one panel per 64 columns.  The descriptors are step 9's
 * SWZ formulas with one panel of A.
 *
 * Emulation (CLGEMM_EMULATE_TMA, with CLGEMM_EMULATE_WGMMA): the same layouts and
 * descriptors, but every work-item copies a share of each box (tma_emu_load_2d, the copy
 * engine's placement and zero-fill written out) between two barriers, since a CPU OpenCL
 * device cannot spin on an mbarrier that another work-item of its group will complete.
 *
 * Local memory: NVIDIA's OpenCL reports 48 KiB per work-group, but a Hopper work-group may
 * declare up to 227 KiB (measured: bench/probes/big_local.c), and the host passes what the
 * device really allows as CLGEMM_LOCAL_BYTES.  That is what makes this kernel fast: the tile
 * cuBLAS uses, 128 x 256 (two consumers), with 64-value slices (A's rows 128 bytes, the widest
 * swizzle) three deep, 144 KiB.
 *
 * Measured on an NVIDIA H100 (OpenCL, driver 580.159.04), 4096^3 / 8192^3 TFLOP/s, same
 * processes as CLBlast, cuBLAS in the same command (bench/results/2026-11-23_nvidia-h100/):
 *   defaults (two consumers on 128 x 256, BK 64, three slots, each slice's wgmmas waited
 *     for, GM 32; one group per SM)             f16 664 / 651, bf16 683 / 680 (2026-11-23)
 *   the same with four slots                                    655 / 653
 *   128 x 128, BK 64, three slots (two groups per SM)           532 / 503
 *   within 48 KiB: one consumer on 64 x 256, BK 16, four slots  444 / 494 (2026-11-22)
 *   within 48 KiB: two consumers on 128 x 256, three 16-deep slots  333 / 360
 *   step 9 (09_wgmma_f16.cl, cp.async)                          306 / 320
 *   cuBLAS f16 / bf16                          683 / 736, 712 / 789 (2026-11-23)
 * The producer warp and the mbarriers are worth 40-50% over step 9 at the same occupancy; the
 * room for a 128 x 256 tile with wide rows another 35-50%.  cuBLAS also shares B across a
 * cluster of SMs, which OpenCL does not launch (clusters of one, measured).
 *
 * TF32 = 1, fp32 data through a packing pre-pass (the wgmma_tma_packed row):
 * TF32 wgmma reads both operands from local memory only K-major, and B (K x N, row-major) is
 * N-major, which is why 10_wgmma_tma_tf32.cl feeds B^T from registers: fragment loads and a
 * wait for them before every slice's wgmmas.  Here a pre-pass kernel (wgmma_tma_pack_bt
 * below) writes B^T (N x K) once into a scratch buffer, rounded to tf32 on the way, and
 * optionally (PACKA = 1) A rounded to tf32 into another, so that the main kernel is this
 * file's 16-bit kernel with 4-byte values: both operands K-major, both by TMA into the same
 * swizzle (4 BK bytes per row), both read by descriptors, no work-item touching a value.
 * B^T's box is BN rows x BK values, one copy per slice.  The pre-pass reads and writes B
 * once (N K values each way), about 50 us at 4096^3 (12% of the whole) and 4% at 8192^3; the
 * timing includes it.  Without PACKA the tensor core truncates A to tf32 (error 3.6e-5
 * against 2.2e-5 rounded, at 4096^3).  Measured on the H100 (2026-11-23), 4096^3 / 8192^3:
 * 128 x 256, BK 32 (128-byte rows), four slots, 337 / 352 TFLOP/s (kernel alone 385 / 378;
 * cuBLAS TF32 377 / 367).  The row width decides how fast wgmma reads a K-major box: one
 * 64 x 64 tile with 32 KiB of slots ran 55, 97 and 124 with 32-, 64- and 128-byte rows.
 *
 * SPLIT = 1 with TF32 (tf32x3, fp32-level accuracy): the pre-pass also writes the residuals
 * lo = tf32(x - hi) of A and B^T in the rows below the values (rows M.. and N.., one tensor
 * map each), a slot holds four boxes (A hi, A lo, B^T hi, B^T lo) and each k8 step issues
 * three wgmmas, lo x hi, hi x lo, hi x hi.  The tensor core's own additions drift over a long K
 * (see 10_wgmma_tma_tf32.cl), so chains of PROMOTE slices are summed from zero and added to
 * fp32 sums.  128 x 128, BK 32, three slots: 109 / 113 TFLOP/s at 2.8e-7 / 2.9e-7 (fp32 SIMT
 * 1.9e-7 / 2.2e-7; cuBLAS fp32 51 / 51).
 *
 * Parameters (-D):
 *   BM x BN  the block of C: BM = 64 per consumer warpgroup (64 or 128); BN a multiple of
 *            64 and of WGN
 *   BK       the K slice: 16, 32 or 64 (TF32: 8, 16 or 32 values, the same 32-, 64- and
 *            128-byte rows)
 *   WGN      the N of one wgmma (64, 128 or 256)
 *   STAGES   K slices resident in local memory (2 .. 16, as many as CLGEMM_LOCAL_BYTES holds)
 *   INFLIGHT slices whose wgmmas may still run when a consumer waits for the next (0 .. 3,
 *            below STAGES): a deeper queue of wgmmas over the waits for bytes
 *   THREADS  the work-group: 128 per consumer warpgroup + 32 (the producer warp)
 *   BF16     0: f16 inputs, 1: bf16 inputs
 *   TF32     1: fp32 inputs, B given as B^T (N x K, from wgmma_tma_pack_bt), TF32 wgmma
 *   SPLIT    with TF32, 1: tf32x3 on packed hi/lo halves (three wgmmas per k8 step)
 *   PROMOTE  with SPLIT: slices per chain summed from zero before the fp32 add (64 k)
 *   PACKA    with TF32, 1: A is the tf32-rounded copy from wgmma_tma_round_a (the host
 *            reads this define; the kernel is the same)
 *   GM       blocks of C are handed out in bands of GM block rows, column by column within
 *            a band (1: row by row, as launched)
 *
 * Why GM: the GPU starts work-groups in launch order, row of blocks after row of blocks, so
 * the groups resident at one time (three per SM, ~400) span a few block rows and every block
 * column, and read all of B at once; at 8192^3 (B alone 128 MiB) that no longer fits in the
 * 50 MB L2, and every wave reads B from memory again.  A band of GM block rows walked column
 * by column keeps the resident groups on GM rows of A and a few columns of B.
 */
#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 256
#endif
#ifndef BK
#define BK 16
#endif
#ifndef WGN
#define WGN 256
#endif
#ifndef STAGES
#define STAGES 4
#endif
#ifndef INFLIGHT
#define INFLIGHT 1
#endif
#ifndef BF16
#define BF16 0
#endif
#ifndef TF32
#define TF32 0
#endif
#ifndef SPLIT
#define SPLIT 0
#endif
#if SPLIT && !TF32
#error "gemm_wgmma_tma: SPLIT (tf32x3) needs TF32=1"
#endif
/* With SPLIT, chains of PROMOTE slices (64 k by default) are summed from zero, then added in
 * fp32. */
#ifndef PROMOTE
#define PROMOTE (SPLIT * (64 / BK > 1 ? 64 / BK : 1))
#endif
#define TMA_CHAIN_CLOSES(i) (PROMOTE && ((i) % (PROMOTE + !PROMOTE) == PROMOTE - 1 || (i) == slices - 1))
#ifndef GM
#define GM 32
#endif
#ifndef THREADS
#define THREADS (BM / 64 * 128 + 32)
#endif

#if TF32
typedef float elem_t;
#define ELEM 4                             /* bytes per value */
#define WG_K 8                             /* k of one wgmma */
#else
typedef ushort elem_t;
#define ELEM 2
#define WG_K 16
#endif
/* What a work-group may declare (host/lib/device.h: 227 KiB on Hopper, although NVIDIA's OpenCL
 * reports 48); the host passes it. */
#ifndef CLGEMM_LOCAL_BYTES
#define CLGEMM_LOCAL_BYTES 49152
#endif
#define CONSUMERS (BM / 64)
#define SWZA (ELEM * BK)                   /* bytes per row of A's box = its swizzle */
#define A_BOX (BM * BK * ELEM)
#define A_BYTES (A_BOX * (1 + SPLIT))      /* A's box (with SPLIT: its hi, then its lo box) */
#if TF32
#define B_BOX (BN * BK * ELEM)             /* B^T's box: BN rows x BK values, as A's */
#define B_BYTES (B_BOX * (1 + SPLIT))
#else
#define B_PANEL (BK * 128)                 /* one box of B: BK rows x 64 values */
#define B_BYTES (BN / 64 * B_PANEL)
#endif
#define STAGE_BYTES (A_BYTES + B_BYTES)
#define WG_NI (BN / WGN)

#if BM != 64 && BM != 128
#error "gemm_wgmma_tma: BM must be 64 or 128 (one or two consumer warpgroups)"
#endif
#if SWZA != 32 && SWZA != 64 && SWZA != 128
#error "gemm_wgmma_tma: BK must be 16, 32 or 64 (TF32: 8, 16 or 32)"
#endif
#if TF32 && BN > 256
#error "gemm_wgmma_tma: TF32 copies B^T's box in one piece of at most 256 rows"
#endif
#if INFLIGHT < 0 || INFLIGHT > 3 || INFLIGHT >= STAGES
#error "gemm_wgmma_tma: INFLIGHT must be 0 .. 3 and below STAGES"
#endif
#if BN % 64 != 0 || BN % WGN != 0 || (WGN != 64 && WGN != 128 && WGN != 256)
#error "gemm_wgmma_tma: WGN must be 64, 128 or 256 and BN a multiple of 64 and of WGN"
#endif
#if THREADS != CONSUMERS * WGMMA_THREADS + 32
#error "gemm_wgmma_tma: THREADS must be 128 * BM / 64 + 32"
#endif
#if STAGES < 2 || STAGES > 16
#error "gemm_wgmma_tma: STAGES must be 2 .. 16"
#endif
#if STAGES * STAGE_BYTES + 16 * STAGES > CLGEMM_LOCAL_BYTES - 16
#error "gemm_wgmma_tma: STAGES slices of A and B exceed the device's local memory"
#endif

#if CLGEMM_EMULATE_TMA
/* What one TMA copy does, shared out over the work-group: the box of box_rows x box_cols
 * values at column x, row y of a rows x cols matrix (ld values between rows) lands at dst
 * with rows of ELEM box_cols bytes, swizzled at swz bytes; values outside the matrix are 0. */
inline void tma_emu_load_2d(__local uchar *arena, const uint dst, __global const elem_t *m,
                            const int ld, const int rows, const int cols, const int x,
                            const int y, const int box_rows, const int box_cols,
                            const uint swz, const int id, const int nthreads)
{
    for (int i = id; i < box_rows * box_cols; i += nthreads) {
        const int r = i / box_cols, c = i % box_cols;
        const bool in = y + r < rows && x + c < cols;
        const uint logical = dst + (uint)(r * box_cols + c) * ELEM;
        *(__local elem_t *)(arena + wgmma_swz(logical, swz)) =
            in ? m[(size_t)(y + r) * ld + x + c] : (elem_t)0;
    }
}
#endif

/* Two neighbouring results of one row, (r, c) and (r, c+1), c even (as step 9). */
inline void tma_store2(__global float *C, const int ldc, const int r, const int c,
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

#if TF32
/* The pre-pass of TF32 = 1.  fp32 -> tf32 to nearest, ties away from zero (what cvt.rna
 * does), in integer arithmetic so that the emulated and the real paths round alike;
 * infinities and NaN pass unchanged. */
inline float tma_tf32_round(const float x)
{
    const uint u = as_uint(x);
    return (u & 0x7f800000u) == 0x7f800000u ? x : as_float((u + 0x1000u) & 0xffffe000u);
}

inline float4 tma_tf32_round4(const float4 x)
{
    return (float4)(tma_tf32_round(x.x), tma_tf32_round(x.y), tma_tf32_round(x.z),
                    tma_tf32_round(x.w));
}

/* Four values of one row at dst: a float4 store inside the matrix, else the first `left`
 * of them (none where the row is outside). */
inline void tma_store4(__global float *dst, const float4 v, const bool inside, const bool row_in,
                       const int left)
{
    if (inside) {
        *(__global float4 *)dst = v;
    } else if (row_in) {
        if (left > 0)
            dst[0] = v.x;
        if (left > 1)
            dst[1] = v.y;
        if (left > 2)
            dst[2] = v.z;
        if (left > 3)
            dst[3] = v.w;
    }
}

/* Bt (N x K, ldt values between rows) = B^T rounded to tf32 (with SPLIT, rows N.. hold the
 * residuals tf32(x - hi)).  Groups of 16 x 16 work-items
 * move 64 x 64 tiles through local memory so that both the reads (along B's rows) and the
 * writes (along Bt's rows) are coalesced 16-byte accesses; the extra column spreads the
 * transposed reads of the tile over the banks.  Interior tiles use float4s: B's rows start on
 * 16 bytes (offB and ldb are multiples of 4, as the row's ld_multiple says) and so do Bt's.
 * A 32 x 32 tile of single floats moved only 1.5 TB/s on the H100.  Launched on
 * (16 * ceil(N / 64), 16 * ceil(K / 64)). */
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void wgmma_tma_pack_bt(const int K, const int N, __global const float *restrict B,
                       const int offB, const int ldb, __global float *restrict Bt, const int ldt)
{
    __local float tile[64][65];
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int n0 = get_group_id(0) * 64, k0 = get_group_id(1) * 64;
    const bool inside = n0 + 64 <= N && k0 + 64 <= K;
    for (int r = ty; r < 64; r += 16) {
        const int k = k0 + r, n = n0 + 4 * tx;
        __global const float *src = B + offB + (size_t)k * ldb + n;
        float4 v = (float4)(0.0f);
        if (inside) {
            v = *(__global const float4 *)src;
        } else if (k < K) {
            v.x = n < N ? src[0] : 0.0f;
            v.y = n + 1 < N ? src[1] : 0.0f;
            v.z = n + 2 < N ? src[2] : 0.0f;
            v.w = n + 3 < N ? src[3] : 0.0f;
        }
        tile[r][4 * tx] = v.x;
        tile[r][4 * tx + 1] = v.y;
        tile[r][4 * tx + 2] = v.z;
        tile[r][4 * tx + 3] = v.w;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = ty; r < 64; r += 16) {
        const int n = n0 + r, k = k0 + 4 * tx;
        const float4 x = (float4)(tile[4 * tx][r], tile[4 * tx + 1][r], tile[4 * tx + 2][r],
                                  tile[4 * tx + 3][r]);
        const float4 hi = tma_tf32_round4(x);
        tma_store4(Bt + (size_t)n * ldt + k, hi, inside, n < N, K - k);
#if SPLIT /* the residuals, N rows further down */
        tma_store4(Bt + (size_t)(N + n) * ldt + k, tma_tf32_round4(x - hi), inside, n < N, K - k);
#endif
    }
}

/* PACKA = 1 (and always with SPLIT): Ar (M x K, ldr between rows) = A rounded to tf32 (with
 * SPLIT, rows M.. hold the residuals), four values per work-item
 * (float4s where all four lie inside: A's rows start on 16 bytes as B's).  Launched on
 * (32 * ceil(K / 128), 8 * ceil(M / 8)). */
__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void wgmma_tma_round_a(const int M, const int K, __global const float *restrict A,
                       const int offA, const int lda, __global float *restrict Ar, const int ldr)
{
    const int k = (get_group_id(0) * 32 + get_local_id(0)) * 4;
    const int m = get_group_id(1) * 8 + get_local_id(1);
    if (m >= M || k >= K)
        return;
    __global const float *src = A + offA + (size_t)m * lda + k;
    __global float *dst = Ar + (size_t)m * ldr + k;
    const bool inside = k + 4 <= K;
    float4 x;
    if (inside) {
        x = *(__global const float4 *)src;
    } else {
        x.x = src[0];
        x.y = k + 1 < K ? src[1] : 0.0f;
        x.z = k + 2 < K ? src[2] : 0.0f;
        x.w = k + 3 < K ? src[3] : 0.0f;
    }
    const float4 hi = tma_tf32_round4(x);
    tma_store4(dst, hi, inside, true, K - k);
#if SPLIT /* the residuals, M rows further down */
    tma_store4(dst + (size_t)M * ldr, tma_tf32_round4(x - hi), inside, true, K - k);
#endif
}
#endif

/* One work-item: put the buffers' addresses into the host-encoded maps (A's at byte 0, B's at
 * byte 128).  Runs before gemm_wgmma_tma on the same queue. */
__kernel void wgmma_tma_set_maps(__global uchar *maps, __global const elem_t *A, const int offA,
                                 __global const elem_t *B, const int offB)
{
#if !CLGEMM_EMULATE_TMA
    TMA_MAP_SET_ADDRESS(maps, (ulong)(A + offA));
    TMA_MAP_SET_ADDRESS(maps + 128, (ulong)(B + offB));
    TMA_MAP_RELEASE();
#endif
}

/* One consumer warpgroup's wgmmas on the slice at byte address base: BK / WG_K k steps, WG_NI
 * wgmmas of 64 x WGN each.  A's rows and (TF32) B^T's rows are both K-major atoms of SWZA
 * bytes; 16-bit B is N-major, in panels of 64 columns. */
#if TF32
#define TMA_B_DESC(base, j, kk)                                                              \
    wgmma_desc_swz((base) + (uint)(A_BYTES + (j) * WGN * SWZA + (kk) * ELEM), 16u, 8u * SWZA, \
                   SWZA)
#if SPLIT
/* tf32x3: lo x hi, hi x lo, then hi x hi (the small terms first); the lo boxes sit A_BOX and
 * B_BOX after the hi ones. */
#define TMA_MMA(d, da, db)                                                                   \
    do {                                                                                     \
        WGMMA_M64K8_TF32(WGN, d, (da) + (ulong)(A_BOX >> 4), db);                            \
        WGMMA_M64K8_TF32(WGN, d, da, (db) + (ulong)(B_BOX >> 4));                            \
        WGMMA_M64K8_TF32(WGN, d, da, db);                                                    \
    } while (0)
#else
#define TMA_MMA(d, da, db) WGMMA_M64K8_TF32(WGN, d, da, db)
#endif
#else
#define TMA_B_DESC(base, j, kk)                                                              \
    wgmma_desc_swz((base) + (uint)(A_BYTES + ((j) * WGN / 64) * B_PANEL + (kk) * 128),        \
                   (uint)B_PANEL, 1024u, 128u)
#define TMA_MMA(d, da, db) WGMMA_M64K16(WGN, d, da, db, BF16, 1)
#endif
#define TMA_SLICE_MMA(base)                                                                  \
    do {                                                                                     \
        WGMMA_FENCE();                                                                       \
        _Pragma("unroll") for (int kk = 0; kk < BK; kk += WG_K)                              \
        {                                                                                    \
            const ulong da_ = wgmma_desc_swz((base) + (uint)(wg * 64 * SWZA + kk * ELEM), 16u, \
                                             8u * SWZA, SWZA);                               \
            _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                \
            {                                                                                \
                const ulong db_ = TMA_B_DESC(base, j, kk);                                   \
                TMA_MMA(acc[j], da_, db_);                                                   \
            }                                                                                \
        }                                                                                    \
        WGMMA_COMMIT();                                                                      \
    } while (0)

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm_wgmma_tma(const int M, const int N, const int K, const float alpha,
                    __global const elem_t *restrict A, const int offA, const int lda,
                    __global const elem_t *restrict B, const int offB, const int ldb,
                    const float beta,
                    __global float *restrict C, const int offC, const int ldc,
                    __global const uchar *restrict maps)
{
    /* Swizzle atoms must sit on their pattern's repeat (1024 bytes for 128-byte rows). */
    __local float4 arena4[STAGES * STAGE_BYTES / 16] __attribute__((aligned(1024)));
    __local ulong bars[2 * STAGES]; /* full[s], then empty[s] */

    const int tid = get_local_id(0);
    WGMMA_SETUP(arena4, tid);
    const int wg = tid / WGMMA_THREADS; /* CONSUMERS: the producer warp */
#if GM > 1
    const int across = get_num_groups(0), down = get_num_groups(1);
    const int lin = get_group_id(1) * across + get_group_id(0);
    const int band = lin / (GM * across), first = band * GM;
    const int band_rows = down - first < GM ? down - first : GM, in_band = lin - first * across;
    const int row0 = (first + in_band % band_rows) * BM, col0 = (in_band / band_rows) * BN;
#else
    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
#endif
    const int slices = (K + BK - 1) / BK;

    float acc[WG_NI][WGN / 2];
#pragma unroll
    for (int j = 0; j < WG_NI; ++j)
#pragma unroll
        for (int q = 0; q < WGN / 2; ++q)
            acc[j][q] = 0.0f;
#if PROMOTE
    /* The fp32 sums of the finished chains; acc holds the chain in progress. */
    float sums[WG_NI][WGN / 2];
#pragma unroll
    for (int j = 0; j < WG_NI; ++j)
#pragma unroll
        for (int q = 0; q < WGN / 2; ++q)
            sums[j][q] = 0.0f;
#define TMA_PROMOTE()                                                                        \
    do {                                                                                     \
        _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                    \
        _Pragma("unroll") for (int q = 0; q < WGN / 2; ++q)                                  \
        {                                                                                    \
            WGMMA_KEEP(acc[j][q]);                                                           \
            sums[j][q] += acc[j][q];                                                         \
            acc[j][q] = 0.0f;                                                                \
        }                                                                                    \
    } while (0)
#define TMA_RESULT sums
#else
#define TMA_RESULT acc
#endif

#if !CLGEMM_EMULATE_TMA
    const uint full0 = TMA_LOCAL_ADDR(bars), empty0 = full0 + 8u * STAGES;
    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            TMA_BAR_INIT(full0 + 8u * s, 1);
            TMA_BAR_INIT(empty0 + 8u * s, CONSUMERS * 4);
        }
        TMA_BAR_INIT_FENCE();
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (wg == CONSUMERS) { /* the producer: one work-item issues every copy */
        if (tid == CONSUMERS * WGMMA_THREADS) {
            TMA_MAP_ACQUIRE(maps);
            TMA_MAP_ACQUIRE(maps + 128);
            for (int i = 0; i < slices; ++i) {
                const int s = i % STAGES;
                if (i >= STAGES) /* the consumers' release of this slot's previous slice */
                    TMA_WAIT(empty0 + 8u * s, (uint)((i / STAGES - 1) & 1));
                const uint full = full0 + 8u * s;
                const uint dst = wgmma_base_ + (uint)(s * STAGE_BYTES);
                TMA_EXPECT(full, STAGE_BYTES);
                TMA_LOAD_2D(dst, maps, i * BK, row0, full);
#if SPLIT /* the lo halves: rows M.. of packed A, N.. of packed B^T */
                TMA_LOAD_2D(dst + (uint)A_BOX, maps, i * BK, M + row0, full);
                TMA_LOAD_2D(dst + (uint)(A_BYTES + B_BOX), maps + 128, i * BK, N + col0, full);
#endif
#if TF32
                TMA_LOAD_2D(dst + (uint)A_BYTES, maps + 128, i * BK, col0, full);
#else
#pragma unroll
                for (int q = 0; q < BN / 64; ++q)
                    TMA_LOAD_2D(dst + (uint)(A_BYTES + q * B_PANEL), maps + 128, col0 + 64 * q,
                                i * BK, full);
#endif
            }
        }
        return;
    }

    const int lane = tid % 32;
    for (int i = 0; i < slices; ++i) {
        const int s = i % STAGES;
        TMA_WAIT(full0 + 8u * s, (uint)((i / STAGES) & 1));
        TMA_SLICE_MMA(wgmma_base_ + (uint)(s * STAGE_BYTES));
        /* At most the wgmmas of this slice and of the INFLIGHT - 1 before it still run:
         * slice i - INFLIGHT's slot is free. */
        WGMMA_WAIT(INFLIGHT);
#if PROMOTE
        if (TMA_CHAIN_CLOSES(i)) { /* the chain's last wgmmas must be done before its sum */
            WGMMA_WAIT(0);
            TMA_PROMOTE();
        }
#endif
        if (i >= INFLIGHT && lane == 0)
            TMA_ARRIVE(empty0 + 8u * (uint)((i - INFLIGHT) % STAGES));
    }
    WGMMA_WAIT(0);
#else
    for (int i = 0; i < slices; ++i) {
        const uint dst = (uint)((i % STAGES) * STAGE_BYTES);
        barrier(CLK_LOCAL_MEM_FENCE);
        tma_emu_load_2d(wgmma_arena_w_, dst, A + offA, lda, M * (1 + SPLIT), K, i * BK, row0,
                        BM, BK, SWZA, tid, THREADS);
#if SPLIT
        tma_emu_load_2d(wgmma_arena_w_, dst + (uint)A_BOX, A + offA, lda, 2 * M, K, i * BK,
                        M + row0, BM, BK, SWZA, tid, THREADS);
        tma_emu_load_2d(wgmma_arena_w_, dst + (uint)(A_BYTES + B_BOX), B + offB, ldb, 2 * N, K,
                        i * BK, N + col0, BN, BK, SWZA, tid, THREADS);
#endif
#if TF32
        tma_emu_load_2d(wgmma_arena_w_, dst + (uint)A_BYTES, B + offB, ldb, N * (1 + SPLIT), K,
                        i * BK, col0, BN, BK, SWZA, tid, THREADS);
#else
        for (int q = 0; q < BN / 64; ++q)
            tma_emu_load_2d(wgmma_arena_w_, dst + (uint)(A_BYTES + q * B_PANEL), B + offB, ldb,
                            K, N, col0 + 64 * q, i * BK, BK, 64, 128u, tid, THREADS);
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        if (wg < CONSUMERS) {
            TMA_SLICE_MMA(wgmma_base_ + dst);
#if PROMOTE
            if (TMA_CHAIN_CLOSES(i))
                TMA_PROMOTE();
#endif
        }
    }
    if (wg == CONSUMERS)
        return;
#endif
#pragma unroll
    for (int j = 0; j < WG_NI; ++j)
#pragma unroll
        for (int q = 0; q < WGN / 2; ++q)
            WGMMA_KEEP(TMA_RESULT[j][q]);

    C += offC + row0 * ldc + col0;
    const int rows_left = M - row0, cols_left = N - col0;
    const bool edge = rows_left < BM || cols_left < BN;
    const int warp = (tid / 32) % 4, g = (tid % 32) >> 2, t = tid & 3;
    const int r = wg * 64 + warp * 16 + g;
#pragma unroll
    for (int j = 0; j < WG_NI; ++j)
#pragma unroll
        for (int c8 = 0; c8 < WGN / 8; ++c8) {
            const int c = j * WGN + c8 * 8 + 2 * t;
            const float *d = &TMA_RESULT[j][4 * c8];
            if (!edge) {
                tma_store2(C, ldc, r, c, d[0], d[1], alpha, beta, BM, BN, false);
                tma_store2(C, ldc, r + 8, c, d[2], d[3], alpha, beta, BM, BN, false);
            } else {
                tma_store2(C, ldc, r, c, d[0], d[1], alpha, beta, rows_left, cols_left, true);
                tma_store2(C, ldc, r + 8, c, d[2], d[3], alpha, beta, rows_left, cols_left,
                           true);
            }
        }
}
