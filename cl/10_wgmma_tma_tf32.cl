#include "common.h"
#include "mma/wgmma.h"
#include "mma/tma.h"

/* Step 10 for fp32 data: TF32 wgmma fed by TMA copies (read 10_wgmma_tma.cl first: the
 * producer warp, the mbarrier ring and the tensor maps are the same).
 *
 * What stood in the way: TF32 wgmma reads both operands from local memory only K-major, and
 * B (K x N, row-major) is N-major.  Step 9 transposed it with 4-byte copies, which capped
 * that kernel at 95 TFLOP/s; a TMA copy cannot transpose at all.
 *
 * What changes: compute C^T = B^T A^T instead.  wgmma's first operand may come from
 * registers, in any order the work-items like, so B^T goes there: each work-item loads its
 * fragment of B^T (mma.sync's m16n8k8 layout, four values per k8 step) from B as the TMA
 * landed it, and rounds it to tf32 on the way (cvt.rna: no rounding pass).  The second
 * operand, A^T, is K-major exactly as A lies in memory: the TMA box of A is read by a
 * descriptor, as in step 9.  The tensor core truncates that operand to tf32 (no rounding of
 * A), which stays well inside tf32's error bound.
 *
 * So one wgmma m64nNk8 makes 64 columns of C (its M) by N = BM rows of C, and a consumer
 * warpgroup owns a BM x 64 block; the D fragment is C^T's, so each work-item stores single
 * values of four rows of C per eight rows.
 *
 * Local layout: A's box is BM rows x BK values (rows of 4 BK bytes, swizzled at 4 BK bytes:
 * BK = 8, 16 or 32 for the 32-, 64- and 128-byte swizzles); B's boxes are BK k-rows x 32
 * values (128 bytes, 128-byte swizzle), one panel per 32 columns.  Fragment loads from B see
 * the swizzle spread the four k rows a warp reads over different banks.
 *
 * The fragment registers are read by the tensor core after the wgmma is issued, so the next
 * slice's fragments go to another set, loaded while this slice's wgmmas run.  With INFLIGHT
 * = n, the wait after slice i's issue lets slices i - n + 1 .. i run on, and n + 1 sets
 * rotate (the loop is unrolled by n + 1): the set of slice i is rewritten only after the wait
 * that follows slice i + n's issue, which is when slice i's wgmmas are known to be done.
 * Between two issues the work-items wait for their bytes, load fragments (and with SPLIT
 * split A's box); a deeper queue of wgmmas hides that longer.
 *
 * Emulation (CLGEMM_EMULATE_WGMMA): copies as in 10_wgmma_tma.cl; each work-item puts its
 * fragment where the layout above says it belongs in a local scratch array, and the
 * emulated wgmma reads the first operand from there and the second through its descriptor.
 *
 * SPLIT = 1, tf32x3 (fp32-level accuracy, as SPLIT in 08_tensor_core.cl): every value is
 * hi + lo, hi = tf32(x) and lo = tf32(x - hi), and a*b ~ a_lo*b_hi + a_hi*b_lo + a_hi*b_hi:
 * three wgmmas per k8 step.  B^T's fragments split in registers.  A^T is read by the tensor
 * core from local memory, so its split has to be there: once a slice's box has landed, it is
 * rounded to tf32 in place and the residuals go into a second box of the same layout beside
 * it (the split is elementwise, so the swizzle does not matter).  Those generic writes are
 * fenced against the tensor core's async proxy before anyone issues a wgmma on them.  The
 * residual box lives in the slot, so the full/empty ring already guards it: whoever writes
 * slot s has seen every consumer give up s's previous slice.  ROUNDA = 1 does the rounding
 * alone, for TF32 with A rounded rather than truncated.
 *
 * The consumers rewrite the box themselves, 16 bytes each, and meet at a named barrier before
 * its wgmmas: a stall every slice in the loop that feeds the tensor core (ROUNDA costs TF32 a
 * seventh of its speed).  A splitter warp of its own, waiting on the full barrier and
 * announcing the rewritten box on a barrier of its own, was slower still on the H100 (tf32x3
 * 44 against 59 TFLOP/s, TF32 with ROUNDA 111 against 161): one warp cannot keep up.
 *
 * PROMOTE = P (8 by default with SPLIT): the tensor core's own additions do not round to
 * nearest, and over a long K that drift is 16 times fp32's error (measured with step 8).  So
 * the products of P slices in a row (a chain) go into a second accumulator set that starts
 * from zero (wgmma's scale-d = 0), and once the chain is done that set is added to the fp32
 * accumulators with ordinary adds.  The chain's end has to wait for all its wgmmas: a bubble
 * in this group's tensor work every P slices, which other groups on the SM fill.
 *
 * Measured on an NVIDIA H100 (OpenCL, driver 580.159.04, 2026-11-22), 4096^3 / 8192^3 TFLOP/s
 * (bench/results/2026-11-22_nvidia-h100/wgmma_tma/tf32x3/):
 *   TF32, two consumers on 128 x 128, BK 8, five slots, two slices in flight (the registry's
 *     wgmma_tma; 94 registers, two groups per SM)                                 186 / 179
 *     the same with ROUNDA (error 2.2e-5 as mma.sync's, against 3.6e-5)           161 / 166
 *     ROUNDA, no slice in flight (INFLIGHT=0), three slots (tensor_core's choice) 169 / 178
 *     one consumer on 128 x 64, BK 16, three slots, one in flight                 167 / 162
 *     four consumers on 128 x 256, or BM 256 (N = 256 wgmmas)                 74 - 88
 *   tf32x3, 128 x 64, BK 8, four slots, chains of 8 slices (168 registers)   60 / 62, 2.8e-7
 *     chains of 4 / no promotion                               59 / 61, 2.6e-7 / 73 / 75, 3.1e-6
 *   step 8 (mma.sync, tuned): TF32 134 / 137, tf32x3 47 / 47 (2.7e-7)
 *   cuBLAS TF32 384 / 411, fp32 51 / 51; warp_tiled (fp32 SIMT) 47 / 47 at 1.9e-7
 * Since 2026-11-23 the host lets Hopper kernels declare the 227 KiB a work-group really has
 * (10_wgmma_tma.cl): the defaults are now BK 32 (A's rows 128 bytes) with six slots, TF32 230
 * / 230 TFLOP/s, and tf32x3 128 x 64, BK 32, four slots, chains of two slices, 63 / 67 at
 * 2.8e-7 / 2.9e-7.  Packing B^T in a pre-pass instead (wgmma_tma_packed, in 10_wgmma_tma.cl)
 * is faster still: 337 / 352 TF32, 109 / 113 tf32x3.  What follows was measured within 48 KiB.
 * What limited it: 48 KiB of local memory hold only 8-deep slices of a 128 x 128 tile (or
 * 16-deep of 128 x 64), so every slice, one or two wgmmas, pays a full barrier wait and
 * fragment loads; wider tiles leave fewer groups per SM and ran slower.  Surprises, all
 * measured: NVIDIA's ptxas serialises the default's wgmmas (warning C7515, the fragment
 * registers) and it is the fastest; letting the first wgmma zero the accumulators removed the
 * warning and fell to 126 / 131; more slices in flight help only with two consumers; leaving
 * B to the tensor core's truncation (no cvt.rna) gained 1% for 1.4 - 1.7 times the error.  tf32x3
 * needs A's residual box in each slot (10 KiB per 8-deep slot) and a second accumulator set
 * (168 registers: two groups per SM), which caps it at a third of TF32.
 *
 * Parameters (-D):
 *   BM       rows of C per block = the wgmma's N: 64, 128 or 256
 *   BN       columns of C per block: 64 per consumer warpgroup (64 .. 256)
 *   BK       the K slice: 8, 16 or 32
 *   STAGES   K slices resident in local memory (2 .. 16, as many as CLGEMM_LOCAL_BYTES holds)
 *   THREADS  128 per consumer warpgroup + 32 (the producer warp)
 *   GM       bands of GM block rows, as in 10_wgmma_tma.cl
 *   SPLIT    0: TF32; 1: tf32x3 (three wgmmas per k8 step, fp32-level accuracy)
 *   ROUNDA   1: A's box rounded to tf32 in local memory (as SPLIT does) rather than
 *            truncated by the tensor core: half the error of A's side (default: SPLIT)
 *   INFLIGHT slices whose wgmmas may still run when the next one is issued (0 .. 3)
 *   PROMOTE  P > 0: chains of P slices summed from zero, then added in fp32 (default: 8 with
 *            SPLIT, else 0)
 */
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 64
#endif
#ifndef BK
#define BK 16
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef GM
#define GM 16
#endif
#ifndef THREADS
#define THREADS (BN / 64 * 128 + 32)
#endif
#ifndef SPLIT
#define SPLIT 0
#endif
#ifndef ROUNDA
#define ROUNDA SPLIT
#endif
#define TF32_PASS (SPLIT || ROUNDA) /* the consumers rewrite A's box before its wgmmas */
#ifndef PROMOTE
#define PROMOTE (8 * SPLIT)
#endif
/* Whether slice i opens / closes a chain of PROMOTE slices (never without PROMOTE). */
#define TF32_CHAIN_OPENS(i) (PROMOTE && (i) % (PROMOTE + !PROMOTE) == 0)
#define TF32_CHAIN_CLOSES(i) \
    (PROMOTE && ((i) % (PROMOTE + !PROMOTE) == PROMOTE - 1 || (i) == slices - 1))
#ifndef INFLIGHT
#define INFLIGHT 1
#endif

/* What a work-group may declare (host/lib/device.h: 227 KiB on Hopper, although NVIDIA's OpenCL
 * reports 48); the host passes it. */
#ifndef CLGEMM_LOCAL_BYTES
#define CLGEMM_LOCAL_BYTES 49152
#endif
#define CONSUMERS (BN / 64)
#define SWZA (4 * BK)                      /* bytes per row of A's box = its swizzle */
#define A_BYTES (BM * BK * 4)
#define B_PANEL (BK * 128)                 /* one box of B: BK rows x 32 values */
#define B_BYTES (BN / 32 * B_PANEL)
#define LO_BYTES (SPLIT * A_BYTES)         /* A's residuals (SPLIT), beside its box */
#define B_OFF (A_BYTES + LO_BYTES)
#define STAGE_BYTES (B_OFF + B_BYTES)
#define KSTEPS (BK / 8)

#if BM != 64 && BM != 128 && BM != 256
#error "gemm_wgmma_tma_tf32: BM must be 64, 128 or 256"
#endif
#if BN != 64 && BN != 128 && BN != 192 && BN != 256
#error "gemm_wgmma_tma_tf32: BN must be 64, 128, 192 or 256 (one to four consumer warpgroups)"
#endif
#if BK != 8 && BK != 16 && BK != 32
#error "gemm_wgmma_tma_tf32: BK must be 8, 16 or 32"
#endif
#if THREADS != CONSUMERS * WGMMA_THREADS + 32
#error "gemm_wgmma_tma_tf32: THREADS must be 128 * BN / 64 + 32"
#endif
#if STAGES < 2 || STAGES > 16
#error "gemm_wgmma_tma_tf32: STAGES must be 2 .. 16"
#endif
#if SPLIT != 0 && SPLIT != 1
#error "gemm_wgmma_tma_tf32: SPLIT must be 0 (TF32) or 1 (tf32x3)"
#endif
#if ROUNDA != SPLIT && ROUNDA != 1
#error "gemm_wgmma_tma_tf32: ROUNDA must be 0 or 1, and 1 with SPLIT"
#endif
#if INFLIGHT < 0 || INFLIGHT > 3 || INFLIGHT >= STAGES
#error "gemm_wgmma_tma_tf32: INFLIGHT must be 0 .. 3 and below STAGES"
#endif
#if PROMOTE < 0 || PROMOTE > 64
#error "gemm_wgmma_tma_tf32: PROMOTE must be 0 .. 64 slices"
#endif
#if STAGES * STAGE_BYTES + 16 * STAGES > CLGEMM_LOCAL_BYTES - 16
#error "gemm_wgmma_tma_tf32: STAGES slots (A, its residuals with SPLIT, B) exceed local memory"
#endif

/* fp32 to tf32, to nearest with ties away from zero (what cvt.rna does). */
#if CLGEMM_EMULATE_WGMMA
inline uint tf32_rna(const float x)
{
    const uint u = as_uint(x);
    return (u & 0x7f800000u) == 0x7f800000u ? u : (u + 0x1000u) & 0xffffe000u;
}
#else
inline uint tf32_rna(const float x)
{
    uint r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}
#endif

/* Byte offset of B's element (k, n) in a stage's B region. */
inline uint tf32_b_at(const int k, const int n)
{
    return (uint)((n >> 5) * B_PANEL) + wgmma_swz((uint)(k * 128 + (n & 31) * 4), 128u);
}

#if CLGEMM_EMULATE_TMA
/* One TMA box of 4-byte values, shared out over the work-group (see 10_wgmma_tma.cl). */
inline void tma_emu_load_2d_f32(__local uchar *arena, const uint dst, __global const float *m,
                                const int ld, const int rows, const int cols, const int x,
                                const int y, const int box_rows, const int box_cols,
                                const uint swz, const int id, const int nthreads)
{
    for (int i = id; i < box_rows * box_cols; i += nthreads) {
        const int r = i / box_cols, c = i % box_cols;
        const bool in = y + r < rows && x + c < cols;
        const uint logical = dst + (uint)(r * box_cols + c) * 4u;
        *(__local float *)(arena + wgmma_swz(logical, swz)) =
            in ? m[(size_t)(y + r) * ld + x + c] : 0.0f;
    }
}
#endif

/* One work-item: put the buffers' addresses into the host-encoded maps (as 10_wgmma_tma.cl). */
__kernel void wgmma_tma_set_maps(__global uchar *maps, __global const float *A, const int offA,
                                 __global const float *B, const int offB)
{
#if !CLGEMM_EMULATE_TMA
    TMA_MAP_SET_ADDRESS(maps, (ulong)(A + offA));
    TMA_MAP_SET_ADDRESS(maps + 128, (ulong)(B + offB));
    TMA_MAP_RELEASE();
#endif
}

/* This work-item's B^T fragment for the k8 step at kk of the slice whose B region starts at
 * byte bregion of the arena: four tf32 values in f[0..3] and, with SPLIT, their residuals in
 * f[4..7]. */
#define TF32_FRAGMENT(f, bregion, kk)                                                     \
    do {                                                                                  \
        __local const uchar *const b_ = wgmma_arena_w_ + (bregion);                       \
        const float v_[4] = {                                                             \
            *(__local const float *)(b_ + tf32_b_at((kk) + t, n0)),                       \
            *(__local const float *)(b_ + tf32_b_at((kk) + t, n0 + 8)),                   \
            *(__local const float *)(b_ + tf32_b_at((kk) + t + 4, n0)),                   \
            *(__local const float *)(b_ + tf32_b_at((kk) + t + 4, n0 + 8)) };             \
        _Pragma("unroll") for (int q_ = 0; q_ < 4; ++q_) {                                \
            (f)[q_] = tf32_rna(v_[q_]);                                                   \
            if (SPLIT)                                                                    \
                (f)[4 * SPLIT + q_] = tf32_rna(v_[q_] - as_float((f)[q_]));               \
        }                                                                                 \
    } while (0)

/* Slot `box` (A's box, its residual box A_BYTES later): every value rounded to tf32 in place,
 * the residual beside it.  Shared by n work-items; 16 bytes each, whatever the swizzle. */
inline void tf32_split_box(__local float4 *box, const int id, const int n)
{
    for (int j = id; j < A_BYTES / 16; j += n) {
        const float4 v = box[j];
        const float4 hi = (float4)(as_float(tf32_rna(v.x)), as_float(tf32_rna(v.y)),
                                   as_float(tf32_rna(v.z)), as_float(tf32_rna(v.w)));
        const float4 r = v - hi;
        box[j] = hi;
        if (SPLIT)
            box[A_BYTES / 16 + j] = (float4)(as_float(tf32_rna(r.x)), as_float(tf32_rna(r.y)),
                                         as_float(tf32_rna(r.z)), as_float(tf32_rna(r.w)));
    }
}

#if CLGEMM_EMULATE_WGMMA
/* One emulated m64nBMk8: the first operand gathered in sc (this warp's 16 rows, BK floats
 * apart), the second through its descriptor, into this work-item's part of d. */
inline void tf32_emu_mma(float *d, __local const float *sc, const ulong desc,
                         __local const uchar *arena, const int g, const int t)
{
    float a_lo[8], a_hi[8];
    for (int k = 0; k < 8; ++k) {
        a_lo[k] = sc[g * BK + k];
        a_hi[k] = sc[(g + 8) * BK + k];
    }
    wgmma_emu_m64k8_tf32_rows(d, BM, a_lo, a_hi, desc, arena, t);
}
#else
/* The consumer warpgroups' own barrier (named barrier 1; the producer warp is not in it). */
#define TF32_CONSUMERS_MEET() \
    asm volatile("bar.sync 1, %0;" ::"r"(CONSUMERS * WGMMA_THREADS) : "memory")
#endif

/* The k8 step at kk of the slot at byte address base, into d, the small products first:
 * b_lo a_hi and b_hi a_lo (SPLIT), then b_hi a_hi.  `first` (an int) opens a chain: d's old
 * values are ignored (wgmma's scale-d). */
#define TF32_STEP(d, f, base, kk, first)                                                  \
    do {                                                                                  \
        if (SPLIT) {                                                                      \
            WGMMA_M64K8_TF32_RA_S(BM, d, (f) + 4 * SPLIT, TF32_DESC_A(base, kk), !(first)); \
            WGMMA_M64K8_TF32_RA_S(BM, d, (f), TF32_DESC_A((base) + A_BYTES, kk), 1);      \
        }                                                                                 \
        WGMMA_M64K8_TF32_RA_S(BM, d, (f), TF32_DESC_A(base, kk), SPLIT || !(first));      \
    } while (0)

/* The descriptor of A^T (K-major, swizzled at SWZA) for the k8 step at kk of the slice at
 * byte address base. */
#define TF32_DESC_A(base, kk) wgmma_desc_swz((base) + (uint)((kk) * 4), 16u, 8u * SWZA, SWZA)

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm_wgmma_tma_tf32(const int M, const int N, const int K, const float alpha,
                         __global const float *restrict A, const int offA, const int lda,
                         __global const float *restrict B, const int offB, const int ldb,
                         const float beta,
                         __global float *restrict C, const int offC, const int ldc,
                         __global const uchar *restrict maps)
{
    __local float4 arena4[STAGES * STAGE_BYTES / 16] __attribute__((aligned(1024)));
    __local ulong bars[2 * STAGES]; /* full[s], then empty[s] */

    const int tid = get_local_id(0);
    WGMMA_SETUP(arena4, tid);
    const int wg = tid / WGMMA_THREADS; /* CONSUMERS: the producer warp */
    const int warp = (tid / 32) % 4, g = (tid % 32) >> 2, t = tid & 3;
    const int n0 = wg * 64 + warp * 16 + g; /* this work-item's first column of the block */
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

    float acc[BM / 2];
#pragma unroll
    for (int q = 0; q < BM / 2; ++q)
        acc[q] = 0.0f;
#if PROMOTE
    float part[BM / 2]; /* the open chain's products (from zero at its first slice) */
#else
    float *const part = acc; /* unused */
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

    if (wg == CONSUMERS) { /* the producer, as in 10_wgmma_tma.cl */
        if (tid == CONSUMERS * WGMMA_THREADS) {
            TMA_MAP_ACQUIRE(maps);
            TMA_MAP_ACQUIRE(maps + 128);
            for (int i = 0; i < slices; ++i) {
                const int s = i % STAGES;
                if (i >= STAGES)
                    TMA_WAIT(empty0 + 8u * s, (uint)((i / STAGES - 1) & 1));
                const uint full = full0 + 8u * s;
                const uint dst = wgmma_base_ + (uint)(s * STAGE_BYTES);
                TMA_EXPECT(full, A_BYTES + B_BYTES);
                TMA_LOAD_2D(dst, maps, i * BK, row0, full);
#pragma unroll
                for (int q = 0; q < BN / 32; ++q)
                    TMA_LOAD_2D(dst + (uint)(B_OFF + q * B_PANEL), maps + 128, col0 + 32 * q,
                                i * BK, full);
            }
        }
        return;
    }

    const int lane = tid % 32;
    uint frag[INFLIGHT + 1][KSTEPS][4 * (1 + SPLIT)]; /* set i % (INFLIGHT + 1): slice i's */
    /* Wait for slice i's bytes (with SPLIT: split A's box, and meet the other consumers once
     * all have; the fragment loads between the fence and the barrier) and load its fragments
     * into set f. */
#define TF32_LOAD(i, f)                                                                    \
    do {                                                                                   \
        const int s_ = (i) % STAGES;                                                       \
        TMA_WAIT(full0 + 8u * s_, (uint)(((i) / STAGES) & 1));                             \
        if (TF32_PASS) {                                                                   \
            tf32_split_box(arena4 + s_ * (STAGE_BYTES / 16), tid, CONSUMERS * WGMMA_THREADS); \
            WGMMA_PROXY_FENCE();                                                           \
        }                                                                                  \
        _Pragma("unroll") for (int k_ = 0; k_ < KSTEPS; ++k_)                              \
            TF32_FRAGMENT(f[k_], s_ * STAGE_BYTES + B_OFF, 8 * k_);                        \
        if (TF32_PASS)                                                                     \
            TF32_CONSUMERS_MEET();                                                         \
    } while (0)
    /* Issue slice i's wgmmas on set f; wait until only they and the INFLIGHT - 1 before them
     * run, which frees slice i - INFLIGHT's slot and its fragment set (for the load that
     * follows).  PROMOTE: the products go into `part`, from zero at a chain's first slice,
     * and its last waits for all of them and adds them to the accumulators.  (Only that full wait lets ptxas see `part` settled:
     * after a wait(1) it serialises every wgmma, measured with its C7514 warning.) */
#define TF32_ISSUE(i, f)                                                                   \
    do {                                                                                   \
        WGMMA_FENCE();                                                                     \
        const uint base_ = wgmma_base_ + (uint)(((i) % STAGES) * STAGE_BYTES);             \
        const bool open_ = TF32_CHAIN_OPENS(i);                                            \
        _Pragma("unroll") for (int k_ = 0; k_ < KSTEPS; ++k_)                              \
            TF32_STEP(TF32_D, f[k_], base_, 8 * k_, open_ && k_ == 0);                     \
        WGMMA_COMMIT();                                                                    \
        if (TF32_CHAIN_CLOSES(i)) {                                                        \
            WGMMA_WAIT(0);                                                                 \
            TF32_ADD_PART();                                                               \
        } else {                                                                           \
            WGMMA_WAIT(INFLIGHT);                                                          \
        }                                                                                  \
        if ((i) >= INFLIGHT && lane == 0)                                                  \
            TMA_ARRIVE(empty0 + 8u * (uint)(((i) - INFLIGHT) % STAGES));                   \
    } while (0)
#if PROMOTE
#define TF32_D part
#define TF32_ADD_PART()                                                                    \
    _Pragma("unroll") for (int q_ = 0; q_ < BM / 2; ++q_) {                                \
        WGMMA_KEEP(part[q_]);                                                              \
        acc[q_] += part[q_];                                                               \
    }
#else
#define TF32_D acc
#define TF32_ADD_PART() ((void)0)
#endif
    /* Slice i + 1's fragments load while the wgmmas of slice i (and of the INFLIGHT - 1
     * before it) run.  Unrolled by the number of fragment sets, so that each is named. */
    int i = 0;
    for (; i + INFLIGHT < slices; i += INFLIGHT + 1)
#pragma unroll
        for (int j = 0; j <= INFLIGHT; ++j) {
            TF32_LOAD(i + j, frag[j]);
            TF32_ISSUE(i + j, frag[j]);
        }
#pragma unroll
    for (int j = 0; j < INFLIGHT; ++j)
        if (i + j < slices) {
            TF32_LOAD(i + j, frag[j]);
            TF32_ISSUE(i + j, frag[j]);
        }
    WGMMA_WAIT(0);
#else
    /* The first operand as the tensor core would see it, gathered from every work-item's
     * fragment registers: scratch[part][wg][row][k], part 1 the residuals (SPLIT). */
#define TF32_SCRATCH (CONSUMERS * 64 * BK)
    __local float scratch[(1 + SPLIT) * TF32_SCRATCH];
    for (int i = 0; i < slices; ++i) {
        const uint dst = (uint)((i % STAGES) * STAGE_BYTES);
        barrier(CLK_LOCAL_MEM_FENCE);
        tma_emu_load_2d_f32(wgmma_arena_w_, dst, A + offA, lda, M, K, i * BK, row0, BM, BK,
                            SWZA, tid, THREADS);
        for (int q = 0; q < BN / 32; ++q)
            tma_emu_load_2d_f32(wgmma_arena_w_, dst + (uint)(B_OFF + q * B_PANEL), B + offB,
                                ldb, K, N, col0 + 32 * q, i * BK, BK, 32, 128u, tid, THREADS);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (TF32_PASS) {
            tf32_split_box(arena4 + (i % STAGES) * (STAGE_BYTES / 16), tid, THREADS);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (wg < CONSUMERS)
            for (int k = 0; k < KSTEPS; ++k) {
                uint f[4 * (1 + SPLIT)];
                TF32_FRAGMENT(f, dst + B_OFF, 8 * k);
                for (int part = 0; part <= SPLIT; ++part) {
                    __local float *const sc =
                        scratch + part * TF32_SCRATCH + (wg * 64 + warp * 16) * BK + 8 * k;
                    sc[g * BK + t] = as_float(f[4 * part]);
                    sc[(g + 8) * BK + t] = as_float(f[4 * part + 1]);
                    sc[g * BK + t + 4] = as_float(f[4 * part + 2]);
                    sc[(g + 8) * BK + t + 4] = as_float(f[4 * part + 3]);
                }
            }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (wg < CONSUMERS) {
            if (TF32_CHAIN_OPENS(i))
                for (int q = 0; q < BM / 2; ++q)
                    part[q] = 0.0f;
            float *const d = PROMOTE ? part : acc;
            for (int k = 0; k < KSTEPS; ++k) {
                const ulong da = TF32_DESC_A(wgmma_base_ + dst, 8 * k);
                __local const float *const sc = scratch + (wg * 64 + warp * 16) * BK + 8 * k;
                if (SPLIT) {
                    tf32_emu_mma(d, sc + TF32_SCRATCH, da, wgmma_arena_, g, t);
                    tf32_emu_mma(d, sc, TF32_DESC_A(wgmma_base_ + dst + A_BYTES, 8 * k),
                                 wgmma_arena_, g, t);
                }
                tf32_emu_mma(d, sc, da, wgmma_arena_, g, t);
            }
            if (TF32_CHAIN_CLOSES(i))
                for (int q = 0; q < BM / 2; ++q)
                    acc[q] += part[q];
        }
    }
    if (wg == CONSUMERS)
        return;
#endif
#pragma unroll
    for (int q = 0; q < BM / 2; ++q)
        WGMMA_KEEP(acc[q]);

    /* acc[4c + h] is C^T's (n0, 8c + 2t + h), acc[4c + 2 + h] its (n0 + 8, ...): column n0 or
     * n0 + 8 of the block, rows 8c + 2t + h. */
    C += offC + row0 * ldc + col0;
    const int rows_left = M - row0, cols_left = N - col0;
    const bool edge = rows_left < BM || cols_left < BN;
#pragma unroll
    for (int c = 0; c < BM / 8; ++c)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int r = 8 * c + 2 * t + h;
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                const int col = n0 + 8 * j;
                __global float *p = C + r * ldc + col;
                if (!edge || (r < rows_left && col < cols_left))
                    *p = gemm_epilogue(acc[4 * c + 2 * j + h], alpha, beta, p);
            }
        }
}
