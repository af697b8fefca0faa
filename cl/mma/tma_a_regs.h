/* PACKA = 3 for cl/10_wgmma_tma.cl (TF32): A rounded to tf32 in registers on its way to the
 * tensor core, included after the kernel's definitions (SWZA, WG_K, A_DESC, B_DESC, TMA_MMA).
 *
 * Why: TF32 wgmma truncates an fp32 operand it reads from local memory, so A must be rounded
 * before, by the pre-pass (PACKA = 1: one more pass over A in memory) or in local memory
 * (PACKA = 2: a read and a write of every slot, serial with the wgmmas that wait for it).
 * wgmma can also take A from registers.  Each consumer loads its fragment of every k step of
 * a slice from the slot (four values per work-item and k step), rounds them (cvt.rna, one
 * instruction each) and hands the registers to the wgmma: A's box is read once, as the
 * descriptor would have, no pass and nothing written back.
 *
 * The schedule: the slice's fragments are loaded and rounded, one wgmma.fence orders those
 * register writes before the tensor core reads them, then the slice's wgmmas are issued, one
 * commit group.  INFLIGHT is 0 with PACKA 3 (wgmma_tma_checks.h refuses more): a wgmma reads
 * its A registers while it runs, and with a slice still running when the loop comes round,
 * the next slice's loads would define them again.  The driver's ptxas then serialised every
 * wgmma of the TF32 build (its warning C7513), and the tf32x3 build computed wrong sums
 * (probe101).  CUTLASS's schedule for A in registers (a commit group per k step, two running
 * while the next k step loads) was tried: correct, but ptxas serialised it too (C7515, probe166
 * in bench/results/2026-11-27_nvidia-h100/probes).  The other consumer warpgroup keeps the
 * tensor core busy while one waits.
 *
 * Registers: a 128 x 256 tile's 128 sums, the slice's fragments and the addresses outgrow the
 * 168 registers the compiler allows a group of 288 work-items, and ptxas serialised the wgmmas
 * (C7512, probe158).  With SETMAXNREG=1 (mma/tma_config.h) the consumers get 232 and the
 * form runs 8% faster than the pre-pass at 4096^3 (probe166).
 *
 * The fragment (PTX ISA, wgmma's register fragment of A for .tf32; the same as mma.sync's
 * m16n8k8): work-item x of the warpgroup, lane l = x % 32 of warp w = x / 32, g = l / 4,
 * t = l % 4, holds A[16w + g][t], A[16w + g + 8][t], A[16w + g][t + 4], A[16w + g + 8][t + 4]
 * of the 64 x 8 step.  In the 128-byte swizzled box (mma/wgmma.h) the eight rows g of one
 * load hit eight different 16-byte chunks, so a warp's 32 loads fall in 32 banks.
 *
 * A stored K x M (A_MN: B of an NN call run swapped, where A is the weight) needs no pass
 * either.  TF32 wgmma reads no M-major operand from local memory, but these loads are the
 * kernel's own: they read the boxes as the copy engine left them, BK k-rows of 32 m (128
 * bytes, swizzled), two boxes per consumer, and hand the tensor core the same fragment.  A
 * warp's load then reads four k-rows of eight neighbours: two of the rows' swizzled chunks
 * share banks, a two-way conflict, where the pre-pass would have read and written all of A
 * in memory. */
#ifndef CLGEMM_TMA_A_REGS_H
#define CLGEMM_TMA_A_REGS_H

#if CLGEMM_EMULATE_WGMMA
#define TF32_RNA(x) tf32_round(x)
#else /* PTX's own rounding (sm_80): what tf32_round computes, in one instruction */
inline float tf32_rna(const float x)
{
    uint u;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(x));
    return as_float(u);
}
#define TF32_RNA(x) tf32_rna(x)
#endif

/* This work-item's fragment of k step kk of consumer wg's 64 rows, from the A box at byte
 * `box` of the arena (K-major, rows of SWZA bytes, SWZA-byte swizzle), as stored (fp32). */
inline void tma_a_fragment(float *a, __local const uchar *arena, const uint box, const int wg,
                           const int id, const int kk)
{
    const int row = wg * 64 + (id / 32) * 16 + (id % 32) / 4, k = kk + id % 4;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int r = row + 8 * (i & 1), c = k + 4 * (i >> 1);
#if A_MN /* box r / 32, its k-row c, m at r % 32 */
        const uint at = box + (uint)((r / A_MN_COLS) * A_BOX1 + c * 128 + (r % A_MN_COLS) * 4);
        a[i] = *(__local const float *)(arena + wgmma_swz(at, 128u));
#else
        const uint at = box + (uint)(r * SWZA + c * 4);
        a[i] = *(__local const float *)(arena + wgmma_swz(at, SWZA));
#endif
    }
}

/* One consumer's wgmmas on the slot at byte address base, A from registers, as above.
 *
 * A slice's fragments are all loaded and rounded first, then one wgmma.fence orders those
 * register writes before the slice's wgmmas, which issue back to back.  Loading each k
 * step's fragment just before its own fence (as this step first did) put a local-memory
 * load's latency, a rounding and a fence between every two k steps of the tensor core.
 *
 * With SPLIT (tf32x3) the fragment is split here as the pre-pass splits a packed operand,
 * hi = tf32(a), lo = tf32(a - hi) (exact in fp32), and the three wgmmas run in PACKA 1's
 * order, lo x hi, hi x lo, hi x hi (B's lo box B_BOX after its hi): the same sums, bit for
 * bit, without writing A's two halves to memory and reading them back.  At M <= 128 the
 * swapped problem's A is the weight, the call's largest operand.  A k step's registers: the
 * rounded values (hi) in 0..3, with SPLIT the residuals (lo) in 4..7. */
#define TMA_A_REGS (4 * (1 + SPLIT))
inline void tma_a_round(float *f, const float *a)
{
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        f[i] = TF32_RNA(a[i]);
#if SPLIT
        f[4 + i] = TF32_RNA(a[i] - f[i]);
#endif
    }
}
#if SPLIT
#define TMA_A_MMAS(f, da, db, j)                                                             \
    do {                                                                                     \
        WGMMA_M64K8_TF32_RS_LO(WGN, acc[j], (f) + 4, da, db, A_MN);                          \
        WGMMA_M64K8_TF32_RS(WGN, acc[j], f, da, (db) + (ulong)(B_BOX >> 4), A_MN);           \
        WGMMA_M64K8_TF32_RS(WGN, acc[j], f, da, db, A_MN);                                   \
    } while (0)
#else
#define TMA_A_MMAS(f, da, db, j) WGMMA_M64K8_TF32_RS(WGN, acc[j], f, da, db, A_MN)
#endif
/* k step kk's fragment of the slot at base, loaded and rounded into f */
#define TMA_A_LOAD(f, base, kk)                                                              \
    do {                                                                                     \
        float raw_[4];                                                                       \
        tma_a_fragment(raw_, wgmma_arena_w_, (base) - wgmma_base_, wg, tid % WGMMA_THREADS,  \
                       kk);                                                                  \
        tma_a_round(f, raw_);                                                                \
    } while (0)
#define TMA_A_KSTEP(f, base, kk)                                                             \
    do {                                                                                     \
        const ulong da_ = A_DESC(base, kk);                                                  \
        _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                    \
            TMA_A_MMAS(f, da_, B_DESC(base, j, kk), j);                                      \
    } while (0)
#define TMA_SLICE_MMA(base)                                                                  \
    do {                                                                                     \
        float af_[BK / WG_K][TMA_A_REGS];                                                    \
        _Pragma("unroll") for (int kk = 0; kk < BK; kk += WG_K)                              \
            TMA_A_LOAD(af_[kk / WG_K], base, kk);                                            \
        WGMMA_FENCE();                                                                       \
        _Pragma("unroll") for (int kk = 0; kk < BK; kk += WG_K)                              \
            TMA_A_KSTEP(af_[kk / WG_K], base, kk);                                           \
        WGMMA_COMMIT();                                                                      \
    } while (0)

#endif
