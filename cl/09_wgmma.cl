#include "common.h"
#include "mma/tf32.h"
#include "mma/wgmma.h"

/* Step 9: Hopper's warpgroup MMA (wgmma).
 *
 * Step 8 feeds the tensor cores the Ampere way: each warp loads its A and B
 * fragments from local memory into registers, one scalar load per value, and
 * issues mma.sync m16n8k8 (1024 multiply-adds) on them.  Its measured limit
 * was exactly that traffic: local loads and the registers they need.  The
 * H100's tensor cores are fed differently at full speed: wgmma.mma_async lets
 * four warps together (a warpgroup, 128 work-items) multiply a 64 x 8 tile of A
 * by an 8 x N tile of B (N up to 256: 131072 multiply-adds per instruction at
 * N = 256) with both operands read by the tensor cores straight from local
 * memory.  No fragment is loaded into registers at all; a 64-bit "matrix
 * descriptor" says where the tiles are and how they are laid out.  What
 * changes from step 8:
 *
 *  1. The inner product.  A work-group is BM/64 warpgroups; warpgroup i owns
 *     rows 64i .. 64i+63 of the BM x BN block of C, as BN/WGN accumulator
 *     tiles of 64 x WGN held in registers (WGN/2 floats per work-item, in the
 *     fragment layout of wgmma.h).  Per 8-wide k step a warpgroup issues
 *     BN/WGN wgmma; with the defaults (BN = WGN = 256) one instruction is
 *     131072 multiply-adds, where step 8 needed 128 mma.sync and 512 local
 *     loads per warp for the same work.
 *
 *  2. The local layout follows the descriptors.  tf32 wgmma reads both
 *     operands K-major: A as its rows (as stored in global memory), B as its
 *     columns, so B is transposed on its way into local memory.  Without
 *     swizzling, an operand is made of 8 x 4 "core matrices" (8 rows of 16
 *     bytes, 128 contiguous bytes); here the BK/4 core matrices of 8 rows sit
 *     side by side along K (LBO = 128 bytes), and the next 8 rows follow
 *     (SBO = BK * 32 bytes).
 *
 *  3. Asynchronous copies, several K slices ahead.  The first version of this
 *     step loaded each K slice into registers after issuing the wgmma of the
 *     previous one, stored it, and waited for both (wgmma.wait_group 0) before
 *     the next barrier: every slice paid a full global-memory latency, and the
 *     H100 measured 61 TFLOP/s at 4096^3, half of step 8.  Now the loads are
 *     cp.async (global -> local without registers; sm_80's instruction, plain
 *     PTX): A in 16-byte copies, B in 4-byte ones, which is how the copy
 *     transposes it (the copy instruction cannot; each instruction's 32 lanes
 *     read 4 rows x 32 bytes of B and write 32 different banks).  STAGES
 *     slices live in local memory; while the tensor cores multiply slice i,
 *     the copies of slices up to i + STAGES-1-WAIT are in flight, and with
 *     WAIT = 1 the wgmma of slice i is still running when slice i+1's are
 *     issued (wgmma.wait_group 1), so the tensor cores need not drain at each
 *     barrier.  One barrier per slice orders it all: past it, every copy of
 *     slice i has landed (each work-item waited for its own,
 *     cp.async.wait_group, and fenced them for the tensor cores' async proxy),
 *     and every wgmma older than WAIT groups has completed, so its stage can
 *     be refilled.
 *
 *  4. Small work-groups, several per SM.  OpenCL gives a work-group at most
 *     48 KiB of local memory (static), but an SM has 228 KiB: the default is
 *     one warpgroup (BM = 64, 128 work-items) on a 64 x 256 block, BK = 8, four
 *     stages (40 KiB), about 166 registers, so three work-groups share an SM
 *     (65536 registers / (168 x 128)): while one waits at its barrier the
 *     others keep the tensor cores busy.  Per k step it issues one m64n256k8
 *     (131072 multiply-adds).
 *
 *  5. Rounding.  Step 8 rounds its inputs to tf32 (to nearest, ties away) on
 *     the way through registers; the tensor core itself truncates the low 13
 *     bits, which would double the worst product error.  cp.async bypasses the
 *     registers, so each work-item rounds its own pieces of a slice in local
 *     memory (a 16-byte load and store each) once they have landed, before the
 *     barrier.  ROUND=0 skips it (faster, less accurate).
 *
 *  6. How OpenCL gets there.  NVIDIA's OpenCL compiler targets sm_90, and
 *     wgmma exists only in sm_90a.  The Hopper instructions are therefore PTX
 *     comments carrying a marker; the host builds once, rewrites the PTX's
 *     target to sm_90a, turns the marked comments into instructions and builds
 *     that PTX again (host/lib/ptx_retarget.h, host/lib/program.c).  On any other
 *     device the plan says "unsupported"; CLGEMM_EMULATE_MATRIX=1 runs the same
 *     kernel through wgmma.h's emulation, which decodes the descriptors and
 *     the D fragment layout the way the PTX ISA describes them, and performs
 *     each cp.async as a plain copy at issue time, so every index around the
 *     instructions is tested on a CPU.
 *
 * Why it should be faster than step 8: no fragment loads (the local-memory
 * traffic per multiply-add drops by the instruction's size), no registers for
 * the operands at all (accumulators and addresses only), and global loads that
 * overlap the tensor cores instead of stalling them.  Swizzled layouts: SWZ = 32, 64
 * or 128 (see "Swizzled layouts" below; 0, the default, is the layout above).  What it does
 * not do yet: TMA and thread-block clusters (not reachable from
 * OpenCL), warp specialisation.
 *
 * Measured on an NVIDIA H100 (OpenCL, driver 580.159.04), 2026-11-22: 95.2
 * TFLOP/s at 4096^3 with the defaults (162 registers, 40 KiB, error 2.2e-5;
 * 3.0x CLBlast), 87.0 at 8192^3 (92.3 with BM = 128, BN = 128, 5 stages).
 * The first version (one stage in flight, wait_group 0 each slice) measured
 * 61, and 74 at best.  Step 8 (mma.sync) still does 133 and cuBLAS TF32 354.
 * What limits it: a barrier per K slice of 8, B's transposition by 4-byte
 * copies, and the rounding pass (ROUND=0, truncating, measured 105).
 *
 * 16-bit inputs (--dtype f16/bf16): cl/09_wgmma_f16.cl, the same structure on m64nNk16 with
 * B read N-major (no transposing copies, no rounding).
 *
 * Work-group shape: the host launches (BN/TN) x (BM/TM) work-items; this kernel
 * uses only their count, 128 * BM/64, renumbered linearly (warps and
 * warpgroups are formed from the linear id).  Interior groups use unguarded
 * copies and float2 stores; edge groups, and the last K slice when BK does not
 * divide K, copy zeros outside the operands (cp.async's source size: 0 * NaN
 * padding would be NaN), and store only inside C.  Needs offA, offB, offC, lda,
 * ldb, ldc multiples of 4 (16-byte copies of A).
 */

/* Parameters (all overridable with -D):
 *   BM x BN  the block of C per work-group; BM a multiple of 64 (one warpgroup
 *            per 64 rows), BN a multiple of 32
 *   BK       the K slice per local stage (multiple of 8)
 *   WGN      the N of one wgmma (8, 16, 32, 64, 128 or 256), dividing BN
 *   STAGES   K slices resident in local memory (>= 2)
 *   WAIT     wgmma groups left in flight across the barrier (0 or 1); loads run
 *            STAGES - 1 - WAIT slices ahead (must be >= 1)
 *   ROUND    1: round the operands to tf32 (to nearest, ties away) in local
 *            memory; 0: leave them as loaded (the tensor core truncates)
 *   TM, TN   only shape the launch: (BN/TN) * (BM/TM) must be 128 * BM/64
 *   SWZ      0 (no swizzle), or 32, 64, 128: the swizzle width W in bytes of both operands'
 *            K-major layouts; BK must be a multiple of W/4 (8, 16, 32) */
#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 256
#endif
#ifndef BK
#define BK 8
#endif
#ifndef WGN
#define WGN 256
#endif
#ifndef STAGES
#define STAGES 4
#endif
#ifndef WAIT
#define WAIT 1
#endif
#ifndef ROUND
#define ROUND 1
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 16
#endif
#ifndef SWZ
#define SWZ 0
#endif

#define WG_TX (BN / TN)                    /* launch shape, dimension 0 */
#define WG_TY (BM / TM)                    /* launch shape, dimension 1 */
#define WG_THREADS (WGMMA_THREADS * (BM / 64))
#define WG_NI (BN / WGN)                   /* wgmma per warpgroup per k step */
#define WG_KC (BK / 4)                     /* core matrices along K in a stage */
#define WG_AS (BM * BK)                    /* floats of A per stage */
#define WG_BS (BN * BK)                    /* floats of B^T per stage */
#define WG_STAGE (WG_AS + WG_BS)
#define WG_LBO 128                         /* bytes between K-neighbour core matrices */
#define WG_SBO (WG_KC * 128)               /* bytes between groups of 8 rows */
#define WG_A_CHUNKS (BM * WG_KC / WG_THREADS)   /* 16-byte pieces of A per work-item per slice */
#define WG_B_CHUNKS (BN * WG_KC / WG_THREADS)   /* 16-byte pieces of B^T per work-item per slice */
#define WG_DIST (STAGES - 1 - WAIT)        /* slices loaded ahead of the one multiplied */

#if BM % 64 != 0 || BM < 64 || BK % 8 != 0 || BK < 8 || BN % WGN != 0 || BN % 32 != 0
#error "gemm_wgmma: BM must be a multiple of 64, BK of 8, BN of WGN and of 32"
#endif
#if WGN != 8 && WGN != 16 && WGN != 32 && WGN != 64 && WGN != 128 && WGN != 256
#error "gemm_wgmma: WGN must be 8, 16, 32, 64, 128 or 256"
#endif
#if BM % TM != 0 || BN % TN != 0 || WG_TX * WG_TY != WG_THREADS
#error "gemm_wgmma: (BN/TN)*(BM/TM) must equal 128*(BM/64), one warpgroup per 64 rows"
#endif
#if (BM * WG_KC) % WG_THREADS != 0 || (BN * WG_KC) % WG_THREADS != 0 || WG_B_CHUNKS < 1
#error "gemm_wgmma: BM*BK/4 and BN*BK/4 must be positive multiples of the work-group size"
#endif
#if SWZ != 0 && SWZ != 32 && SWZ != 64 && SWZ != 128
#error "gemm_wgmma: SWZ must be 0, 32, 64 or 128"
#endif
#if SWZ != 0 && BK % (SWZ / 4) != 0
#error "gemm_wgmma: with SWZ, BK must be a multiple of SWZ/4"
#endif
#if (WAIT != 0 && WAIT != 1) || WG_DIST < 1 || WG_DIST > 7
#error "gemm_wgmma: WAIT must be 0 or 1, and 1 <= STAGES - 1 - WAIT <= 7"
#endif
#if 4 * STAGES * WG_STAGE > 49136
#error "gemm_wgmma: STAGES K slices of A and B exceed the 48 KiB of local memory"
#endif

/* Float offset of element (r, k) of a K-major operand in a stage: core matrices of 8 rows
 * x 4 floats (128 bytes), WG_KC of them side by side along K, then the next 8 rows. */
inline int wg_core(const int r, const int k)
{
    return ((r >> 3) * WG_KC + (k >> 2)) * 32 + (r & 7) * 4 + (k & 3);
}

/* Who copies what.  Both operands are cut into 16-byte pieces, one row of a core matrix
 * each (4 consecutive k), numbered in local-memory order, so piece p lands at float 4p of
 * its operand's part of the stage; work-item tid copies pieces tid + i * WG_THREADS.
 * A: piece e is row r, floats 4kq .. 4kq+3, one 16-byte copy: a warp's copies fill 512
 * contiguous bytes, and read 8 (or 16) rows x 64 (or 32) bytes of A.
 * B: piece c is column n of B, k = 4kq .. 4kq+3 (16 bytes of one row of B^T), copied as
 * four 4-byte copies, because cp.async cannot transpose.  A warp's 32 pieces are 4 whole core
 * matrices (lane / 8 picks one, lane % 8 its column), and copy j of lane l takes
 * k = 4kq + (l/8 + j) % 4: each copy instruction then reads 4 rows x 32 bytes of B and writes
 * 32 different banks (a core matrix spans all 32 banks; one k of it only 8).
 * Because WG_THREADS/8 and 4 x the warp count are multiples of WG_KC, a work-item's pieces
 * all share one k (A) or kq (B): the i-th is WG_THREADS/WG_KC rows further down A, or
 * 32 x warps/WG_KC columns further along B, and 16 x WG_THREADS bytes further in the stage. */
#define WG_WARPS (WG_THREADS / 32)
#if SWZ == 0 && ((WG_THREADS / 8) % WG_KC != 0 || (4 * WG_WARPS) % WG_KC != 0)
#error "gemm_wgmma: BK too large for the copy plan (BK/4 must divide 4 x the work-group's warps)"
#endif
inline int wg_a_row(const int e) { return (e & 7) + 8 * ((e >> 3) / WG_KC); }
inline int wg_a_k(const int e) { return 4 * ((e >> 3) % WG_KC); }
inline int wg_b_core(const int c) { return 4 * (c >> 5) + ((c & 31) >> 3); }
inline int wg_b_kq(const int c) { return wg_b_core(c) % WG_KC; }
inline int wg_b_col(const int c) { return (wg_b_core(c) / WG_KC) * 8 + (c & 7); }

#if SWZ != 0
/* Swizzled layouts (SWZ = 32, 64 or 128; wgmma.h's wgmma_desc_swz).  With W = SWZ bytes, a
 * K-major panel row holds E = W/4 tf32 values along K: panel p of an operand holds
 * k = p*E .. p*E + E-1 of all its rows, row r of panel p at logical byte (p * rows + r) * W
 * of the operand's region (rows = BM for A, BN for B^T), value k at + (k % E) * 4; the
 * 16-byte chunks then move, physical = wgmma_swz(logical, W).  Descriptors: SBO = 8W (next
 * 8 rows), LBO unused (16); a k8 step inside a row adds 32 bytes to the start address.
 * Copies: piece e is the 16 bytes at logical byte 16e of its region (row R = e / WG_CH across
 * panels, chunk e % WG_CH, four consecutive k); a swizzle moves whole chunks, so its four
 * values land at wgmma_swz(16e, W) + 4 * (k % 4).  A: 16-byte copies, as the 16-bit kernel.
 * B^T: four 4-byte copies per piece (the transposition); copy j of a work-item takes
 * k % 4 = (q + j) % 4, q = ((lane / WG_CH) / (128 / W)) % 4: the rows of a warp's pieces
 * whose W-byte rows share banks then write different k, i.e. different banks.  The arena is
 * 1024-byte aligned and every region and stage a multiple of 1024 bytes (BM, BN multiples of
 * 64 and 32, BK of 8), and 16 * WG_THREADS is one too: piece e + i * WG_THREADS is
 * 16 * i * WG_THREADS bytes past piece e's physical place. */
#define WG_E (SWZ / 4)                     /* tf32 values per row of a swizzle atom */
#define WG_CH (SWZ / 16)                   /* 16-byte chunks per row */
inline int wg_sa_row(const int e) { return (e / WG_CH) % BM; }
inline int wg_sa_k(const int e) { return (e / WG_CH) / BM * WG_E + 4 * (e % WG_CH); }
inline int wg_sb_col(const int e) { return (e / WG_CH) % BN; }
inline int wg_sb_k(const int e) { return (e / WG_CH) / BN * WG_E + 4 * (e % WG_CH); }
inline int wg_sb_q(const int lane) { return ((lane / WG_CH) / (128 / SWZ)) & 3; }
/* Deltas from piece e (< WG_THREADS) to piece e + i * WG_THREADS, WG_RPI rows further across
 * panels: constants when WG_RPI divides the operand's rows (first row e / WG_CH < WG_RPI:
 * row and panel of the later piece follow from i alone); A always (WG_RPI = 2 BM / WG_CH),
 * B when WG_RPI divides BN, else computed from e. */
#define WG_RPI (WG_THREADS / WG_CH)
#define WG_SA_DR(i, e) ((i) * WG_RPI % BM)
#define WG_SA_DK(i, e) ((i) * WG_RPI / BM * WG_E)
#if BN % WG_RPI == 0
#define WG_SB_DN(i, e) ((i) * WG_RPI % BN)
#define WG_SB_DK(i, e) ((i) * WG_RPI / BN * WG_E)
#else
#define WG_SB_DN(i, e) (wg_sb_col((e) + (i) * WG_THREADS) - wg_sb_col(e))
#define WG_SB_DK(i, e) (wg_sb_k((e) + (i) * WG_THREADS) - wg_sb_k(e))
#endif
#endif

/* Start the copies of one K slice into one stage.  as, bs: the local-memory byte addresses
 * (wgmma_base_ + offset) of this work-item's first piece of A and of B^T in the stage; arena
 * is WGMMA_SETUP's wgmma_arena_w_ (used by the emulation only).  a: its first piece's source; b: B at row 4kq, its
 * column n; both already moved to the slice.  corner: the slice's corner of A, a valid
 * address to name in copies that read nothing.  Guarded copies zero-fill whatever lies
 * outside the operands: rows_left, cols_left (from this work-item's first row of A and
 * column of B), a_k_left and b_k_left (from its first k in A, in B) say how much is inside. */
inline void wg_issue(const uint as, const uint bs, __global const float *a,
                     const int lda, __global const float *b, const int ldb,
                     __global const float *corner, const int rows_left, const int cols_left,
                     const int a_k_left, const int b_k_left, const int q, const bool guarded,
                     __local uchar *arena, const int e)
{
#if SWZ != 0
    /* a, b: the first piece's sources (B at its column n, row k); pieces e + i * WG_THREADS
     * by their deltas from piece e (see the swizzled layouts above). */
#pragma unroll
    for (int i = 0; i < WG_A_CHUNKS; ++i) {
        const int dr = WG_SA_DR(i, e), dk = WG_SA_DK(i, e);
        __global const float *const src = a + dr * lda + dk;
        const uint dst = as + i * 16u * WG_THREADS;
        if (!guarded) {
            CPASYNC_16(arena, dst, src);
        } else {
            const bool in = dr < rows_left && a_k_left - dk > 0;
            const int bytes = !in ? 0 : a_k_left - dk >= 4 ? 16 : 4 * (a_k_left - dk);
            CPASYNC_16Z(arena, dst, in ? src : corner, bytes);
        }
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const int kk = (q + j) & 3;
#pragma unroll
        for (int i = 0; i < WG_B_CHUNKS; ++i) {
            const int dn = WG_SB_DN(i, e), dk = WG_SB_DK(i, e) + kk;
            __global const float *const src = b + dk * ldb + dn;
            const uint dst = bs + i * 16u * WG_THREADS + 4u * kk;
            if (!guarded) {
                CPASYNC_4(arena, dst, src);
            } else {
                const bool in = dk < b_k_left && dn < cols_left;
                CPASYNC_4Z(arena, dst, in ? src : corner, in ? 4 : 0);
            }
        }
    }
#else
#pragma unroll
    for (int i = 0; i < WG_A_CHUNKS; ++i) {
        __global const float *const src = a + i * (WG_THREADS / WG_KC) * lda;
        if (!guarded) {
            CPASYNC_16(arena, as + i * 16u * WG_THREADS, src);
        } else {
            const bool in = i * (WG_THREADS / WG_KC) < rows_left && a_k_left > 0;
            const int bytes = !in ? 0 : a_k_left >= 4 ? 16 : 4 * a_k_left;
            CPASYNC_16Z(arena, as + i * 16u * WG_THREADS, in ? src : corner, bytes);
        }
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const int kk = (q + j) & 3;
        __global const float *const row = b + kk * ldb;
#pragma unroll
        for (int i = 0; i < WG_B_CHUNKS; ++i) {
            const int dn = i * (4 * WG_WARPS / WG_KC) * 8;
            if (!guarded) {
                CPASYNC_4(arena, bs + i * 16u * WG_THREADS + 4u * kk, row + dn);
            } else {
                const bool in = kk < b_k_left && dn < cols_left;
                CPASYNC_4Z(arena, bs + i * 16u * WG_THREADS + 4u * kk, in ? row + dn : corner,
                           in ? 4 : 0);
            }
        }
    }
#endif
}

#if ROUND
inline float4 wg_round4(const float4 v)
{
    return (float4)(tf32_round(v.x), tf32_round(v.y), tf32_round(v.z), tf32_round(v.w));
}

/* Round this work-item's own pieces of a landed stage to tf32 in place (its own cp.async
 * writes are visible to it after the wait; nobody else touches these bytes until the
 * barrier). */
inline void wg_round(__local float *as, __local float *bs)
{
#pragma unroll
    for (int i = 0; i < WG_A_CHUNKS; ++i) {
        __local float4 *const p = (__local float4 *)(as + i * 4 * WG_THREADS);
        *p = wg_round4(*p);
    }
#pragma unroll
    for (int i = 0; i < WG_B_CHUNKS; ++i) {
        __local float4 *const p = (__local float4 *)(bs + i * 4 * WG_THREADS);
        *p = wg_round4(*p);
    }
}
#endif

/* Two neighbouring results of one row, (r, c) and (r, c+1), c even. */
inline void wg_store2(__global float *C, const int ldc, const int r, const int c, const float x,
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

/* cp.async.wait_group takes a literal: at most WG_DIST - 1 slices still on their way. */
#if WG_DIST == 1
#define WG_CP_WAIT() CPASYNC_WAIT(0)
#elif WG_DIST == 2
#define WG_CP_WAIT() CPASYNC_WAIT(1)
#elif WG_DIST == 3
#define WG_CP_WAIT() CPASYNC_WAIT(2)
#elif WG_DIST == 4
#define WG_CP_WAIT() CPASYNC_WAIT(3)
#elif WG_DIST == 5
#define WG_CP_WAIT() CPASYNC_WAIT(4)
#elif WG_DIST == 6
#define WG_CP_WAIT() CPASYNC_WAIT(5)
#else
#define WG_CP_WAIT() CPASYNC_WAIT(6)
#endif

__kernel __attribute__((reqd_work_group_size(WG_TX, WG_TY, 1)))
void gemm_wgmma(const int M, const int N, const int K, const float alpha,
                __global const float *restrict A, const int offA, const int lda,
                __global const float *restrict B, const int offB, const int ldb,
                const float beta,
                __global float *restrict C, const int offC, const int ldc)
{
    /* STAGES stages, each A (BM x BK) then B^T (BN x BK), in the core-matrix layout. */
#if SWZ == 0
    __local float4 arena4[STAGES * WG_STAGE / 4];
#else   /* swizzle atoms must be aligned to their pattern's repeat (at most 1024 bytes) */
    __local float4 arena4[STAGES * WG_STAGE / 4] __attribute__((aligned(1024)));
#endif
    __local float *const arena = (__local float *)arena4;

    const int tid = get_local_id(1) * WG_TX + get_local_id(0);
    WGMMA_SETUP(arena4, tid);
    const int wg = tid / WGMMA_THREADS;            /* this work-item's warpgroup */
    const int warp = (tid / 32) % 4, lane = tid % 32;
    const int g = lane >> 2, t = lane & 3;

    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
    const int rows_left = M - row0, cols_left = N - col0;
    A += offA + row0 * lda;
    B += offB + col0;
    C += offC + row0 * ldc + col0;
    const bool edge = rows_left < BM || cols_left < BN;
    const int slices = (K + BK - 1) / BK;

    float acc[WG_NI][WGN / 2];
#pragma unroll
    for (int j = 0; j < WG_NI; ++j)
#pragma unroll
        for (int q = 0; q < WGN / 2; ++q)
            acc[j][q] = 0.0f;

    /* This work-item's copy plan (see wg_issue): its first piece of A and of B. */
#if SWZ == 0
    const int a_r = wg_a_row(tid), a_k = wg_a_k(tid);
    const int b_k = 4 * wg_b_kq(tid), b_n = wg_b_col(tid), q = (tid & 31) >> 3;
    const uint a_piece = 16u * tid;   /* byte offset of the first piece in its region */
#else
    const int a_r = wg_sa_row(tid), a_k = wg_sa_k(tid);
    const int b_k = wg_sb_k(tid), b_n = wg_sb_col(tid), q = wg_sb_q(tid & 31);
    const uint a_piece = wgmma_swz(16u * tid, SWZ);
#endif
    __global const float *const a_src = A + a_r * lda + a_k;
    __global const float *const b_src = B + b_k * ldb + b_n;
    const uint a_dst = wgmma_base_ + a_piece;
    const uint b_dst = wgmma_base_ + 4u * WG_AS + a_piece;

/* An empty asm that "changes" an integer: what is computed from it cannot be hoisted out of
 * the K loop, where it would hold registers for the whole loop (cheap to recompute). */
#if CLGEMM_EMULATE_WGMMA
#define WG_OPAQUE(x) ((void)0)
#else
#define WG_OPAQUE(x) asm volatile("" : "+r"(x))
#endif

/* Slice s (from k = s * BK) into stage st; interior slices unguarded. */
#define WG_ISSUE(s, st)                                                                  \
    do {                                                                                 \
        const int k0_ = (s) * BK;                                                        \
        int lda_ = lda, ldb_ = ldb, q_ = q;                                              \
        WG_OPAQUE(lda_);                                                                 \
        WG_OPAQUE(ldb_);                                                                 \
        WG_OPAQUE(q_);                                                                   \
        const uint as_ = a_dst + (st) * (4u * WG_STAGE);                                 \
        const uint bs_ = b_dst + (st) * (4u * WG_STAGE);                                 \
        if (edge || K - k0_ < BK)                                                        \
            wg_issue(as_, bs_, a_src + k0_, lda_, b_src + k0_ * ldb, ldb_, A + k0_,      \
                     rows_left - a_r, cols_left - b_n, K - k0_ - a_k, K - k0_ - b_k,     \
                     q_, true, wgmma_arena_w_, tid);                                     \
        else                                                                             \
            wg_issue(as_, bs_, a_src + k0_, lda_, b_src + k0_ * ldb, ldb_, A + k0_, 0, 0, 0, \
                     0, q_, false, wgmma_arena_w_, tid);                                 \
    } while (0)

    /* The first WG_DIST slices on their way; one cp.async group per slice, empty ones
     * included, so that "slice i has landed" is always "at most WG_DIST - 1 groups pending". */
#pragma unroll
    for (int s = 0; s < WG_DIST; ++s) {
        if (s < slices)
            WG_ISSUE(s, s);
        CPASYNC_COMMIT();
    }

    /* Byte offsets, within a stage, of this warpgroup's 64 rows of A and of B^T's start. */
    const uint a_rows = (uint)wg_core(wg * 64, 0) * 4u;
    const uint b_rows = (uint)(WG_AS + wg_core(0, 0)) * 4u;

    int stage = 0, fill = WG_DIST;   /* the stage multiplied now, the stage loaded next */
    for (int i = 0; i < slices; ++i) {
        /* Slice i has landed (this work-item's copies of it); rounded, fenced for the
         * tensor cores' async proxy, and after the barrier everyone's copies are there.
         * Past the barrier, every wgmma older than WAIT groups has completed everywhere:
         * the stage of slice i - 1 - WAIT is free for slice i + WG_DIST. */
        WG_CP_WAIT();
#if ROUND
        wg_round(arena + stage * WG_STAGE + a_piece / 4u,
                 arena + stage * WG_STAGE + WG_AS + a_piece / 4u);
#endif
        WGMMA_PROXY_FENCE();
        barrier(CLK_LOCAL_MEM_FENCE);

        const uint base = wgmma_base_ + (uint)(stage * WG_STAGE) * 4u;
        WGMMA_FENCE();
#if SWZ != 0
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            /* k step kk: panel kk / E, (kk % E) * 4 bytes into its rows */
            const ulong da = wgmma_desc_swz(base + (uint)((kk / WG_E) * BM * SWZ + wg * 64 * SWZ +
                                                         (kk % WG_E) * 4),
                                            16u, 8u * SWZ, SWZ);
#pragma unroll
            for (int j = 0; j < WG_NI; ++j) {
                const uint b_off = 4u * WG_AS + (uint)(((kk / WG_E) * BN + j * WGN) * SWZ +
                                                       (kk % WG_E) * 4);
                WGMMA_M64K8_TF32(WGN, acc[j], da, wgmma_desc_swz(base + b_off, 16u, 8u * SWZ, SWZ));
            }
        }
#else
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            /* k step kk starts kk/4 core matrices into each group of rows */
            const ulong da = wgmma_desc(base + a_rows + (uint)kk * 32u, WG_LBO, WG_SBO);
#pragma unroll
            for (int j = 0; j < WG_NI; ++j) {
                const uint b_off = b_rows + (uint)wg_core(j * WGN, kk) * 4u;
                WGMMA_M64K8_TF32(WGN, acc[j], da, wgmma_desc(base + b_off, WG_LBO, WG_SBO));
            }
        }
#endif
        WGMMA_COMMIT();

        /* The copies of slice i + WG_DIST start while the tensor cores work. */
        if (i + WG_DIST < slices)
            WG_ISSUE(i + WG_DIST, fill);
        CPASYNC_COMMIT();
        WGMMA_WAIT(WAIT);
        stage = stage == STAGES - 1 ? 0 : stage + 1;
        fill = fill == STAGES - 1 ? 0 : fill + 1;
    }
    WGMMA_WAIT(0);
#pragma unroll
    for (int j = 0; j < WG_NI; ++j)
#pragma unroll
        for (int q = 0; q < WGN / 2; ++q)
            WGMMA_KEEP(acc[j][q]);

    /* Work-item (warp, g, t) of warpgroup wg holds, for every 8 columns c8 of each
     * accumulator tile j, D[16 warp + g (+8)][8 c8 + 2t (+1)] (wgmma.h). */
    const int r = wg * 64 + warp * 16 + g;
#pragma unroll
    for (int j = 0; j < WG_NI; ++j)
#pragma unroll
        for (int c8 = 0; c8 < WGN / 8; ++c8) {
            const int c = j * WGN + c8 * 8 + 2 * t;
            const float *d = &acc[j][4 * c8];
            if (!edge) {
                wg_store2(C, ldc, r, c, d[0], d[1], alpha, beta, BM, BN, false);
                wg_store2(C, ldc, r + 8, c, d[2], d[3], alpha, beta, BM, BN, false);
            } else {
                wg_store2(C, ldc, r, c, d[0], d[1], alpha, beta, rows_left, cols_left, true);
                wg_store2(C, ldc, r + 8, c, d[2], d[3], alpha, beta, rows_left, cols_left,
                          true);
            }
        }
}
