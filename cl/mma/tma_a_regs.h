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
 * The schedule: k step kk's fragment is loaded, a wgmma.fence orders those register writes
 * before the tensor core reads them, then kk's wgmmas are issued, while the next step's loads
 * run; one commit group per slice.  INFLIGHT is 0 with PACKA 3 (wgmma_tma_checks.h refuses
 * more): a wgmma reads its A registers while it runs, and with a slice still running when the
 * loop comes round, the next slice's loads would define them again.  The driver's ptxas then
 * serialised every wgmma of the kernel in the TF32 build (its warning C7513, "non wgmma
 * instructions defining input registers of a wgmma between start and end of the pipeline
 * stage"), and the tf32x3 build computed wrong sums (probe101).  The other consumer
 * warpgroup keeps the tensor core busy meanwhile.
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
 * With SPLIT (tf32x3) the fragment is split here as the pre-pass splits a packed operand,
 * hi = tf32(a), lo = tf32(a - hi) (exact in fp32), and the three wgmmas run in PACKA 1's
 * order, lo x hi, hi x lo, hi x hi (B's lo box B_BOX after its hi): the same sums, bit for
 * bit, without writing A's two halves to memory and reading them back.  At M <= 128 the
 * swapped problem's A is the weight, the call's largest operand. */
#if SPLIT
#define TMA_A_MMAS(af, da, db, j)                                                            \
    do {                                                                                     \
        float hi_[4], lo_[4];                                                                \
        _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) {                                   \
            hi_[i_] = TF32_RNA(af[i_]);                                                      \
            lo_[i_] = TF32_RNA(af[i_] - hi_[i_]);                                            \
        }                                                                                    \
        WGMMA_M64K8_TF32_RS_LO(WGN, acc[j], lo_, da, db, A_MN);                              \
        WGMMA_M64K8_TF32_RS(WGN, acc[j], hi_, da, (db) + (ulong)(B_BOX >> 4), A_MN);         \
        WGMMA_M64K8_TF32_RS(WGN, acc[j], hi_, da, db, A_MN);                                 \
    } while (0)
#else
#define TMA_A_MMAS(af, da, db, j)                                                            \
    do {                                                                                     \
        float r_[4];                                                                         \
        _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_)                                     \
            r_[i_] = TF32_RNA(af[i_]);                                                       \
        WGMMA_M64K8_TF32_RS(WGN, acc[j], r_, da, db, A_MN);                                  \
    } while (0)
#endif
#define TMA_SLICE_MMA(base)                                                                  \
    do {                                                                                     \
        _Pragma("unroll") for (int kk = 0; kk < BK; kk += WG_K) {                            \
            float af_[4];                                                                    \
            tma_a_fragment(af_, wgmma_arena_w_, (base) - wgmma_base_, wg,                    \
                           tid % WGMMA_THREADS, kk);                                         \
            WGMMA_FENCE();                                                                   \
            const ulong da_ = A_DESC(base, kk);                                              \
            _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                \
                TMA_A_MMAS(af_, da_, B_DESC(base, j, kk), j);                                \
        }                                                                                    \
        WGMMA_COMMIT();                                                                      \
    } while (0)

#endif
