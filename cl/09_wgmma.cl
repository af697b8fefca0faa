#include "common.h"
#include "mma/wgmma.h"

/* Step 9: Hopper's warpgroup MMA (wgmma) on f16 or bf16 data (DTYPE 1 or 2, bit patterns in
 * ushort buffers), fp32 accumulation, C in fp32.  fp32 data reaches wgmma in step 10 (TF32).
 *
 * What changes from step 8, which feeds the tensor cores the Ampere way (every warp loads its
 * fragments from local memory into registers for mma.sync, and is limited by that traffic):
 *
 *  1. One instruction per warpgroup, operands from local memory.  wgmma.mma_async lets a
 *     warpgroup (four warps, 128 work-items) multiply a 64 x 16 tile of A by a 16 x WGN tile
 *     of B (up to 262144 multiply-adds), both read by the tensor cores straight from local
 *     memory through matrix descriptors (mma/wgmma.h): registers hold accumulators and
 *     addresses only.  A work-group is BM/64 warpgroups; warpgroup i owns rows 64i .. 64i+63
 *     of the block of C as BN/WGN accumulator tiles of 64 x WGN (wgmma.h's D fragment).
 *  2. Asynchronous copies, several K slices ahead.  cp.async (global -> local without
 *     registers) fills STAGES K slices in local memory, STAGES - 1 - WAIT slices ahead of
 *     the tensor cores; with WAIT = 1 a group of wgmma still runs when the next is issued.
 *     One barrier per slice orders it all: past it every copy of the slice has landed (each
 *     work-item waited for its own and fenced them for the tensor cores' async proxy) and
 *     every wgmma older than WAIT groups has completed, so its stage can be refilled.
 *  3. The copies write the descriptors' layout directly: A K-major (as stored), B N-major
 *     (the transpose-B immediate of 16-bit types), both by plain 16-byte copies, swizzled
 *     (SWZ) so that the tensor cores read them without bank conflicts.
 *  4. wgmma is sm_90a only, which NVIDIA's OpenCL does not target: the host's post-pass turns
 *     marked PTX comments into it (wgmma.h); the emulation tests every index on a CPU.
 *
 * What is left for step 10: the consumers of a slice are also its producers, a barrier joins
 * everybody at every slice, and 48 KiB hold two 32-deep stages of 128 x 128.  Step 10 hands
 * the copies to the TMA engine (reached through the same post-pass), issued by one producer
 * warp, with mbarriers instead of barriers.  Measurements: docs/results.md, step 9.
 *
 * Unswizzled layouts (SWZ = 0):
 *  - A, K-major: core matrices of 8 rows x 8 k (16 bytes per row, 128 contiguous bytes),
 *    BK/8 of them side by side along K (LBO = 128), then the next 8 rows (SBO = BK/8 * 128).
 *    One k16 step spans two core matrices along K.
 *  - B, N-major: a core matrix is 8 consecutive k, each 16 bytes = 8 consecutive n (a piece
 *    of 8 rows of B), side by side along N (SBO = 128), the next 8 k LBO = BN/8 * 128 further.
 *
 * Copy plan: each operand is cut into 16-byte pieces numbered in local-memory order (piece p
 * at byte 16p of its part of the stage), and work-item tid copies pieces tid + i * WG_THREADS.
 * A: piece e is row wg_a_row(e), k = wg_a_k(e) .. +7.  B: piece e is k row e % 8 of its core
 * matrix, core matrix e / 8: n group (e / 8) % (BN/8), k group (e / 8) / (BN/8).  A warp's 32
 * pieces are 4 whole core matrices, so each quarter-warp writes 128 contiguous bytes (all 32
 * banks) and reads 8 rows x 16 bytes; the warp reads 8 rows x 64 bytes of B (whole sectors).
 *
 * Edges: groups on the edge of C, and the last K slice when BK does not divide K, copy zeros
 * outside the operands (cp.async's source size, in bytes: K or N not a multiple of 8 is cut
 * inside a piece).  Needs offA, offB, lda, ldb multiples of 8 (16-byte aligned pieces).
 *
 * Swizzled layouts (SWZ = 32, 64 or 128).  The tensor cores read the unswizzled layout's core
 * matrices (128 contiguous bytes each) with bank conflicts; the swizzled layouts of wgmma.h
 * (wgmma_desc_swz) spread them.  With W = SWZ bytes and E = W / 2 values:
 *   A, K-major: BK / E panels of BM rows x W bytes (panel p holds k = pE .. pE + E - 1); row
 *     r of panel p at logical byte (p * BM + r) * W.  Descriptor: SBO = 8 W (next 8 rows),
 *     LBO unused (16); k16 step kk starts at panel kk / E, byte (kk % E) * 2 of the row.
 *   B, N-major (transpose immediate): BN / E panels of BK k-rows x W bytes (panel q holds
 *     n = qE .. qE + E - 1); row k of panel q at logical byte (q * BK + k) * W.  Descriptor:
 *     LBO = BK * W (next panel along N), SBO = 8 W (next 8 k); k16 step kk starts at row kk.
 *   Physical byte = wgmma_swz(logical, W): the 16-byte chunk index XOR bits 7.. of the
 *     address, applied by the copies (each 16-byte piece lands where the swizzle expects
 *     it) and undone by the tensor cores.  The arena is 1024-byte aligned and every region
 *     a multiple of 8 W bytes, so the pattern relative to the arena is the absolute one.
 *   Copy plan: piece e is chunk e % (W/16) of row R = e / (W/16) (rows counted across
 *   panels); rows of pieces e and e + i * WG_THREADS differ by a multiple of 16, so every
 *   piece of a work-item has the same XOR: its destination is the first's + 16 i WG_THREADS.
 *   Needs BK, BN and WGN multiples of E. */

/* Launch: 1-D, (BM/64) * 128 work-items per group; group (x, y) computes the block of C at
 * block column x, block row y.  Parameters (all overridable with -D):
 *   DTYPE    1: f16 inputs, 2: bf16 inputs
 *   BM x BN  the block of C; BM a multiple of 64, BN of WGN and of 8
 *   BK       the K slice per stage (multiple of 16); a stage is 2 (BM + BN) BK bytes
 *   WGN      the N of one wgmma (8, 16, 32, 64, 128 or 256)
 *   STAGES   K slices resident in local memory; WAIT (0 or 1) wgmma groups in flight across
 *            the barrier; copies run STAGES - 1 - WAIT slices ahead (>= 1)
 *   SWZ      0 (unswizzled) or 32, 64, 128: the swizzle width of both operands, in bytes */
#ifndef DTYPE
#define DTYPE 1
#endif
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 32
#endif
#ifndef WGN
#define WGN 128
#endif
#ifndef STAGES
#define STAGES 2
#endif
#ifndef WAIT
#define WAIT 0
#endif
#ifndef SWZ
#define SWZ 64
#endif

#if DTYPE == 0
#error "gemm_wgmma: 16-bit data only (DTYPE 1 or 2); fp32 data runs step 10 (10_wgmma_tma.cl, TF32)"
#elif DTYPE != 1 && DTYPE != 2
#error "gemm_wgmma: DTYPE must be 1 (f16) or 2 (bf16)"
#endif

#define WG_THREADS (WGMMA_THREADS * (BM / 64))
#define WG_NI (BN / WGN)
#define WG_KC (BK / 8)                     /* core matrices along K in a stage */
#define WG_NB (BN / 8)                     /* core matrices of B along N */
#define WG_AS (BM * BK)                    /* ushorts of A per stage */
#define WG_BS (BN * BK)                    /* ushorts of B per stage */
#define WG_STAGE (WG_AS + WG_BS)
#define WG_A_LBO 128
#define WG_A_SBO (WG_KC * 128)
#define WG_B_LBO (WG_NB * 128)             /* next 8 k */
#define WG_B_SBO 128                       /* next 8 n */
#define WG_A_CHUNKS (BM * WG_KC / WG_THREADS)
#define WG_B_CHUNKS (BN * WG_KC / WG_THREADS)
#define WG_DIST (STAGES - 1 - WAIT)
#define WG_Q (WG_THREADS / 8)              /* pieces' core matrices per round of copies */

#if BM % 64 != 0 || BM < 64 || BK % 16 != 0 || BK < 16 || BN % WGN != 0 || BN % 8 != 0
#error "gemm_wgmma: BM must be a multiple of 64, BK of 16, BN of WGN"
#endif
#if WGN != 8 && WGN != 16 && WGN != 32 && WGN != 64 && WGN != 128 && WGN != 256
#error "gemm_wgmma: WGN must be 8, 16, 32, 64, 128 or 256"
#endif
#if (BM * WG_KC) % WG_THREADS != 0 || (BN * WG_KC) % WG_THREADS != 0 || WG_B_CHUNKS < 1
#error "gemm_wgmma: BM*BK/8 and BN*BK/8 must be positive multiples of the work-group size"
#endif
#if SWZ == 0 && WG_Q % WG_KC != 0
#error "gemm_wgmma: BK/8 must divide the work-group size / 8"
#endif
#if SWZ != 0 && SWZ != 32 && SWZ != 64 && SWZ != 128
#error "gemm_wgmma: SWZ must be 0, 32, 64 or 128"
#endif
#if SWZ != 0 && (BK % (SWZ / 2) != 0 || BN % (SWZ / 2) != 0 || WGN % (SWZ / 2) != 0)
#error "gemm_wgmma: with SWZ, BK, BN and WGN must be multiples of SWZ/2"
#endif
#if (WAIT != 0 && WAIT != 1) || WG_DIST < 1 || WG_DIST > 7
#error "gemm_wgmma: WAIT must be 0 or 1, and 1 <= STAGES - 1 - WAIT <= 7"
#endif
#if 2 * STAGES * WG_STAGE > 49136
#error "gemm_wgmma: STAGES K slices of A and B exceed the 48 KiB of local memory"
#endif

/* ushort offset of element (r, k) of A in a stage (K-major), and of (k, n) of B (N-major). */
inline int wg_a_at(const int r, const int k)
{
    return ((r >> 3) * WG_KC + (k >> 3)) * 64 + (r & 7) * 8 + (k & 7);
}
inline int wg_b_at(const int k, const int n)
{
    return ((k >> 3) * WG_NB + (n >> 3)) * 64 + (k & 7) * 8 + (n & 7);
}

/* Piece e of A: row, first k.  Pieces e and e + i * WG_THREADS share k and are i * WG_THREADS
 * / WG_KC rows apart. */
inline int wg_a_row(const int e) { return (e & 7) + 8 * ((e >> 3) / WG_KC); }
inline int wg_a_k(const int e) { return 8 * ((e >> 3) % WG_KC); }
/* Piece e of B: its k (within the slice) and first n; piece e + i * WG_THREADS is WG_B_DK(i)
 * rows and WG_B_DN(i) columns further (constants for each i when BN/8 and WG_THREADS/8 divide
 * one another). */
inline int wg_b_k(const int e) { return (e & 7) + 8 * ((e >> 3) / WG_NB); }
inline int wg_b_n(const int e) { return 8 * ((e >> 3) % WG_NB); }
#if WG_NB % WG_Q == 0   /* a round of copies covers part of one 8-row group of k */
#define WG_B_DN(i, e) (8 * WG_Q * ((i) % (WG_NB / WG_Q)))
#define WG_B_DK(i, e) (8 * ((i) / (WG_NB / WG_Q)))
#elif WG_Q % WG_NB == 0 /* a round covers whole 8-row groups of k */
#define WG_B_DN(i, e) 0
#define WG_B_DK(i, e) (8 * (i) * (WG_Q / WG_NB))
#else                   /* neither (BN = 192, say): computed from the first piece e */
#define WG_B_DN(i, e) (wg_b_n((e) + (i) * WG_THREADS) - wg_b_n(e))
#define WG_B_DK(i, e) (wg_b_k((e) + (i) * WG_THREADS) - wg_b_k(e))
#endif

#if SWZ != 0
#define WG_E (SWZ / 2)                     /* values per row of a swizzle atom */
#define WG_CH (SWZ / 16)                   /* 16-byte chunks per row */
/* Piece e (16 bytes at logical byte 16e of its region): row R = e / WG_CH across panels,
 * chunk e % WG_CH.  A: panel R / BM, row R % BM, k = (R / BM) * E + 8 * chunk.  B: panel
 * R / BK (n = panel * E + 8 * chunk), k row R % BK. */
inline int wg_sa_row(const int e) { return (e / WG_CH) % BM; }
inline int wg_sa_k(const int e) { return (e / WG_CH) / BM * WG_E + 8 * (e % WG_CH); }
inline int wg_sb_k(const int e) { return (e / WG_CH) % BK; }
inline int wg_sb_n(const int e) { return (e / WG_CH) / BK * WG_E + 8 * (e % WG_CH); }
#endif

/* Start the copies of one K slice into one stage.  as, bs: byte addresses of this work-item's
 * first piece of A and of B in the stage; a, b: their sources (in the slice); e: its first
 * piece (tid); corner: a valid address for copies that read nothing.  Guarded copies zero-fill
 * outside the operands: rows_left, cols_left (from the first piece's row of A and column of
 * B), a_k_left, b_k_left (from its k in A, in B). */
inline void wg_issue(const uint as, const uint bs, __global const ushort *a, const int lda,
                     __global const ushort *b, const int ldb, __global const ushort *corner,
                     const int rows_left, const int cols_left, const int a_k_left,
                     const int b_k_left, const int e, const bool guarded,
                     __local uchar *arena)
{
#if SWZ != 0
    /* Deltas from the first piece e (= tid) to piece e + i * WG_THREADS: constants once
     * unrolled and e's parts hoisted. */
#pragma unroll
    for (int i = 0; i < WG_A_CHUNKS; ++i) {
        const int dr = wg_sa_row(e + i * WG_THREADS) - wg_sa_row(e);
        const int dk = wg_sa_k(e + i * WG_THREADS) - wg_sa_k(e);
        __global const ushort *const src = a + dr * lda + dk;
        const uint dst = as + i * 16u * WG_THREADS;
        if (!guarded) {
            CPASYNC_16(arena, dst, src);
        } else {
            const bool in = dr < rows_left && a_k_left - dk > 0;
            const int bytes = !in ? 0 : a_k_left - dk >= 8 ? 16 : 2 * (a_k_left - dk);
            CPASYNC_16Z(arena, dst, in ? src : corner, bytes);
        }
    }
#pragma unroll
    for (int i = 0; i < WG_B_CHUNKS; ++i) {
        const int dk = wg_sb_k(e + i * WG_THREADS) - wg_sb_k(e);
        const int dn = wg_sb_n(e + i * WG_THREADS) - wg_sb_n(e);
        __global const ushort *const src = b + dk * ldb + dn;
        const uint dst = bs + i * 16u * WG_THREADS;
        if (!guarded) {
            CPASYNC_16(arena, dst, src);
        } else {
            const int n_left = cols_left - dn;
            const bool in = dk < b_k_left && n_left > 0;
            const int bytes = !in ? 0 : n_left >= 8 ? 16 : 2 * n_left;
            CPASYNC_16Z(arena, dst, in ? src : corner, bytes);
        }
    }
#else
#pragma unroll
    for (int i = 0; i < WG_A_CHUNKS; ++i) {
        __global const ushort *const src = a + i * (WG_THREADS / WG_KC) * lda;
        const uint dst = as + i * 16u * WG_THREADS;
        if (!guarded) {
            CPASYNC_16(arena, dst, src);
        } else {
            const bool in = i * (WG_THREADS / WG_KC) < rows_left && a_k_left > 0;
            const int bytes = !in ? 0 : a_k_left >= 8 ? 16 : 2 * a_k_left;
            CPASYNC_16Z(arena, dst, in ? src : corner, bytes);
        }
    }
#pragma unroll
    for (int i = 0; i < WG_B_CHUNKS; ++i) {
        __global const ushort *const src = b + WG_B_DK(i, e) * ldb + WG_B_DN(i, e);
        const uint dst = bs + i * 16u * WG_THREADS;
        if (!guarded) {
            CPASYNC_16(arena, dst, src);
        } else {
            const int n_left = cols_left - WG_B_DN(i, e);
            const bool in = WG_B_DK(i, e) < b_k_left && n_left > 0;
            const int bytes = !in ? 0 : n_left >= 8 ? 16 : 2 * n_left;
            CPASYNC_16Z(arena, dst, in ? src : corner, bytes);
        }
    }
#endif
}

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

__kernel __attribute__((reqd_work_group_size(WG_THREADS, 1, 1)))
void gemm_wgmma(const int M, const int N, const int K, const float alpha,
                __global const ushort *restrict A, const int offA, const int lda,
                __global const ushort *restrict B, const int offB, const int ldb,
                const float beta,
                __global gemm_c_t *restrict C, const int offC, const int ldc,
                __global const gemm_c_t *restrict bias, const int offBias,
                const int strideA, const int strideB, const int strideC)
{
    GEMM_BATCH_ENTRY(A, B, C);
#if SWZ == 0
    __local float4 arena4[STAGES * WG_STAGE / 8];   /* 8 ushorts per float4 */
#else   /* swizzle atoms must be aligned to their pattern's repeat (at most 1024 bytes) */
    __local float4 arena4[STAGES * WG_STAGE / 8] __attribute__((aligned(1024)));
#endif

    const int tid = get_local_id(0);
    WGMMA_SETUP(arena4, tid);
    const int wg = tid / WGMMA_THREADS;
    const int warp = (tid / 32) % 4, lane = tid % 32;
    const int g = lane >> 2, t = lane & 3;

    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
    const int rows_left = M - row0, cols_left = N - col0;
    A += offA + row0 * lda;
    B += offB + col0;
    GEMM_C_MOVE(row0, col0);
    GEMM_BIAS_MOVE(row0, col0);
    const bool edge = rows_left < BM || cols_left < BN;
    const int slices = (K + BK - 1) / BK;

    float acc[WG_NI][WGN / 2];
#pragma unroll
    for (int j = 0; j < WG_NI; ++j)
#pragma unroll
        for (int q = 0; q < WGN / 2; ++q)
            acc[j][q] = 0.0f;

#if SWZ == 0
    const int a_r = wg_a_row(tid), a_k = wg_a_k(tid);
    const int b_k = wg_b_k(tid), b_n = wg_b_n(tid);
#else
    const int a_r = wg_sa_row(tid), a_k = wg_sa_k(tid);
    const int b_k = wg_sb_k(tid), b_n = wg_sb_n(tid);
#endif
    __global const ushort *const a_src = A + a_r * lda + a_k;
    __global const ushort *const b_src = B + b_k * ldb + b_n;
#if SWZ == 0
    const uint a_dst = wgmma_base_ + 16u * tid;
    const uint b_dst = wgmma_base_ + 2u * WG_AS + 16u * tid;
#else   /* the first piece's swizzled place (regions are whole atoms: relative = absolute) */
    const uint a_dst = wgmma_base_ + wgmma_swz(16u * tid, SWZ);
    const uint b_dst = wgmma_base_ + 2u * WG_AS + wgmma_swz(16u * tid, SWZ);
#endif

#if CLGEMM_EMULATE_WGMMA
#define WG_OPAQUE(x) ((void)0)
#else
#define WG_OPAQUE(x) asm volatile("" : "+r"(x))
#endif

#define WG_ISSUE(s, st)                                                                  \
    do {                                                                                 \
        const int k0_ = (s) * BK;                                                        \
        int lda_ = lda, ldb_ = ldb;                                                      \
        WG_OPAQUE(lda_);                                                                 \
        WG_OPAQUE(ldb_);                                                                 \
        const uint as_ = a_dst + (st) * (2u * WG_STAGE);                                 \
        const uint bs_ = b_dst + (st) * (2u * WG_STAGE);                                 \
        if (edge || K - k0_ < BK)                                                        \
            wg_issue(as_, bs_, a_src + k0_, lda_, b_src + k0_ * ldb, ldb_, A + k0_,      \
                     rows_left - a_r, cols_left - b_n, K - k0_ - a_k, K - k0_ - b_k,     \
                     tid, true, wgmma_arena_w_);                                         \
        else                                                                             \
            wg_issue(as_, bs_, a_src + k0_, lda_, b_src + k0_ * ldb, ldb_, A + k0_, 0, 0, 0, \
                     0, tid, false, wgmma_arena_w_);                                     \
    } while (0)

#pragma unroll
    for (int s = 0; s < WG_DIST; ++s) {
        if (s < slices)
            WG_ISSUE(s, s);
        CPASYNC_COMMIT();
    }

    const uint a_rows = (uint)wg_a_at(wg * 64, 0) * 2u;
    const uint b_start = 2u * WG_AS;

    int stage = 0, fill = WG_DIST;
    for (int i = 0; i < slices; ++i) {
        WG_CP_WAIT();
        WGMMA_PROXY_FENCE();
        barrier(CLK_LOCAL_MEM_FENCE);

        const uint base = wgmma_base_ + (uint)(stage * WG_STAGE) * 2u;
        WGMMA_FENCE();
#if SWZ != 0
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            const ulong da = wgmma_desc_swz(base + (uint)((kk / WG_E) * BM * SWZ + wg * 64 * SWZ +
                                                         (kk % WG_E) * 2),
                                            16u, 8u * SWZ, SWZ);
#pragma unroll
            for (int j = 0; j < WG_NI; ++j) {
                const uint b_off = 2u * WG_AS + (uint)((j * WGN / WG_E) * BK * SWZ + kk * SWZ);
                WGMMA_M64K16(WGN, acc[j], da,
                             wgmma_desc_swz(base + b_off, (uint)(BK * SWZ), 8u * SWZ, SWZ),
                             DTYPE, 1);
            }
        }
#else
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            const ulong da = wgmma_desc(base + a_rows + (uint)wg_a_at(0, kk) * 2u, WG_A_LBO,
                                        WG_A_SBO);
#pragma unroll
            for (int j = 0; j < WG_NI; ++j) {
                const uint b_off = b_start + (uint)wg_b_at(kk, j * WGN) * 2u;
                WGMMA_M64K16(WGN, acc[j], da, wgmma_desc(base + b_off, WG_B_LBO, WG_B_SBO),
                             DTYPE, 1);
            }
        }
#endif
        WGMMA_COMMIT();

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

    const int r = wg * 64 + warp * 16 + g;
#pragma unroll
    for (int j = 0; j < WG_NI; ++j)
#pragma unroll
        for (int c8 = 0; c8 < WGN / 8; ++c8) {
            const int c = j * WGN + c8 * 8 + 2 * t;
            const float *d = &acc[j][4 * c8];
            if (!edge) {
                gemm_store2(C, ldc, bias, r, c, d[0], d[1], alpha, beta, BM, BN, false);
                gemm_store2(C, ldc, bias, r + 8, c, d[2], d[3], alpha, beta, BM, BN, false);
            } else {
                gemm_store2(C, ldc, bias, r, c, d[0], d[1], alpha, beta, rows_left, cols_left, true);
                gemm_store2(C, ldc, bias, r + 8, c, d[2], d[3], alpha, beta, rows_left, cols_left,
                          true);
            }
        }
}
