/* The compile-time configuration of cl/10_wgmma_tma.cl: each -D parameter's default (per form:
 * 16-bit, TF32, tf32x3), the warpgroup roles (CONSUMERS, the producer warp, ROUNDERS), where
 * each operand lands (A_MN, B_MN), the element type and wgmma (TMA_MMA), and each slice's boxes
 * and descriptors.  The kernel's opening comment explains the parameters; their definitions
 * live here so that the kernel file reads as the algorithm and stays within its length.
 * Included by the kernel after common.h and mma/wgmma.h (GEMM_TRANS_A / B, WGMMA_THREADS)
 * and before mma/wgmma_tma_checks.h, which checks what this defines. */
#ifndef CLGEMM_TMA_CONFIG_H
#define CLGEMM_TMA_CONFIG_H

#ifndef DTYPE
#define DTYPE 1
#endif
#ifndef SPLIT
#define SPLIT 0
#endif
#if DTYPE != 0
#define TMA_DEFAULT(bits16, tf32, tf32x3) bits16
#elif !SPLIT
#define TMA_DEFAULT(bits16, tf32, tf32x3) tf32
#else
#define TMA_DEFAULT(bits16, tf32, tf32x3) tf32x3
#endif
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN TMA_DEFAULT(256, 256, 128)
#endif
#ifndef BK
#define BK TMA_DEFAULT(64, 32, 32)
#endif
#ifndef WGN
#define WGN TMA_DEFAULT(256, 256, 128)
#endif
#ifndef STAGES
#define STAGES TMA_DEFAULT(3, 4, 3)
#endif
#ifndef INFLIGHT /* PACKA 3: 0, see mma/tma_a_regs.h */
#define INFLIGHT (PACKA == 3 ? 0 : TMA_DEFAULT(0, 1, 1))
#endif
#ifndef GM
#define GM TMA_DEFAULT(32, 16, 16)
#endif
#ifndef PACKA
#define PACKA 1
#endif
#ifndef PACKB
#define PACKB 1
#endif
#define ROUND_LOCAL (DTYPE == 0 && (PACKA == 2 || PACKB == 2))
#ifndef ROUNDER
#define ROUNDER 0
#endif
#ifndef PERSIST
#define PERSIST 0
#endif
#ifndef PROMOTE
#define PROMOTE (SPLIT * (64 / BK > 1 ? 64 / BK : 1))
#endif
/* What a work-group may declare (host/lib/device.h: 227 KiB on Hopper, although NVIDIA's
 * OpenCL reports 48); the host passes it. */
#ifndef CLGEMM_LOCAL_BYTES
#define CLGEMM_LOCAL_BYTES 49152
#endif
/* A wgmma descriptor holds a local address in 14 bits of 16-byte units: 256 KiB.  Hopper gives
 * a group 227 KiB, but an emulating device may offer more, where a ring past 256 KiB would
 * read the wrong slot (the checks then refuse it instead). */
#if CLGEMM_LOCAL_BYTES > 262144
#undef CLGEMM_LOCAL_BYTES
#define CLGEMM_LOCAL_BYTES 262144
#endif

#define CONSUMERS (BM / 64)
#ifndef SETMAXNREG
#define SETMAXNREG 0
#endif
/* The work-items: the consumer warpgroups, the producer warp, then with ROUNDER those that
 * round slots in local memory (mma/tma_round.h).  With SETMAXNREG the producer is a whole
 * warpgroup (setmaxnreg moves registers between warpgroups, never within one): it gives all
 * but 40 of its registers back, and the consumers take them (232 each).  The compiler gives
 * every work-item of a group of 288 (two consumers and a warp) at most 168 registers, the
 * warps' allocation rounded to whole warpgroups (65536 / 384): a 128 x 256 tile holds 128
 * sums per work-item, and with A's fragments in registers too ptxas serialised its wgmmas
 * (probe158 in bench/results/2026-11-27_nvidia-h100/probes). */
#define ROUNDERS (ROUNDER * WGMMA_THREADS)
#define PRODUCER0 (CONSUMERS * WGMMA_THREADS) /* the producer warp's first work-item */
#define PRODUCER_THREADS (SETMAXNREG ? WGMMA_THREADS : 32)
#define IS_PRODUCER(tid) ((tid) / PRODUCER_THREADS == PRODUCER0 / PRODUCER_THREADS)
#define TMA_THREADS (PRODUCER0 + PRODUCER_THREADS + ROUNDERS)
/* Two consumers (checked): 2 x 128 x 232 + 128 x 40 = 64512 of the SM's 65536 registers. */
#if SETMAXNREG && !CLGEMM_EMULATE_TMA
#define TMA_SETMAXNREG_DEC() \
    asm volatile("// @sm90a setmaxnreg.dec.sync.aligned.u32 40;" ::: "memory")
#define TMA_SETMAXNREG_INC() \
    asm volatile("// @sm90a setmaxnreg.inc.sync.aligned.u32 232;" ::: "memory")
#else
#define TMA_SETMAXNREG_DEC() ((void)0)
#define TMA_SETMAXNREG_INC() ((void)0)
#endif
#define WG_NI (BN / WGN)

/* A_MN: A lands M-major (A stored K x M: 16-bit, or TF32 with A rounded in registers, whose
 * fragment loads read either layout), else K-major; B_MN: B lands N-major (16-bit B as K x N),
 * else K-major (the TF32 pre-pass's B^T, or a B stored N x K). */
#if GEMM_TRANS_A && (DTYPE != 0 || PACKA == 3)
#define A_MN 1
#else
#define A_MN 0
#endif
#if DTYPE != 0 && !GEMM_TRANS_B
#define B_MN 1
#else
#define B_MN 0
#endif

#if DTYPE == 0 /* TF32 on packed operands: both K-major */
typedef float elem_t;
#define ELEM 4                             /* bytes per value */
#define WG_K 8                             /* k of one wgmma */
#if SPLIT /* lo x hi, hi x lo, then hi x hi; the lo boxes sit A_BOX and B_BOX after the hi */
#define TMA_MMA(d, da, db)                                                                   \
    do {                                                                                     \
        WGMMA_M64K8_TF32(WGN, d, (da) + (ulong)(A_BOX >> 4), db);                            \
        WGMMA_M64K8_TF32(WGN, d, da, (db) + (ulong)(B_BOX >> 4));                            \
        WGMMA_M64K8_TF32(WGN, d, da, db);                                                    \
    } while (0)
#else
#define TMA_MMA(d, da, db) WGMMA_M64K8_TF32(WGN, d, da, db)
#endif
#else /* 16-bit */
typedef ushort elem_t;
#define ELEM 2
#define WG_K 16
#define TMA_MMA(d, da, db) WGMMA_M64K16_AB(WGN, d, da, db, DTYPE, A_MN, B_MN)
#endif
#define SWZA (ELEM * BK)                   /* bytes per row of a K-major box = its swizzle */
#define A_BOX (BM * BK * ELEM)             /* all of A's boxes of one slice */

/* Each operand's boxes per slice: count, bytes, shape (of the matrix as stored), box q's corner
 * at slice i, and the descriptor of consumer wg's A or of B's j-th WGN columns at k step kk. */
#if A_MN /* A stored K x M: boxes of BK k-rows x 128 bytes (64 m, or 32 in fp32), 128B swizzle */
#define A_MN_COLS (128 / ELEM)
#define A_BOXES (BM / A_MN_COLS)
#define A_BOX1 (BK * 128)
#define A_BOX_ROWS BK
#define A_BOX_COLS A_MN_COLS
#define A_X(i, q) (row0 + A_MN_COLS * (q))
#define A_Y(i, q) ((i) * BK)
#define A_DESC(base, kk)                                                                     \
    wgmma_desc_swz((base) + (uint)(wg * (64 / A_MN_COLS) * A_BOX1 + (kk) * 128),             \
                   (uint)A_BOX1, 1024u, 128u)
#else /* A (M x K): one box of BM rows x BK values */
#define A_BOXES 1
#define A_BOX1 A_BOX
#define A_BOX_ROWS BM
#define A_BOX_COLS BK
#define A_X(i, q) ((i) * BK)
#define A_Y(i, q) row0
#define A_DESC(base, kk) \
    wgmma_desc_swz((base) + (uint)(wg * 64 * SWZA + (kk) * ELEM), 16u, 8u * SWZA, SWZA)
#endif
#if B_MN /* B (K x N): one box of BK k-rows x 64 values (128 bytes) per 64 columns */
#define B_BOXES (BN / 64)
#define B_BOX (BK * 128)
#define B_BOX_ROWS BK
#define B_BOX_COLS 64
#define B_X(i, q) (col0 + 64 * (q))
#define B_Y(i, q) ((i) * BK)
#define B_DESC(base, j, kk)                                                                  \
    wgmma_desc_swz((base) + (uint)(A_BYTES + ((j) * WGN / 64) * B_BOX + (kk) * 128),          \
                   (uint)B_BOX, 1024u, 128u)
#else /* B^T (N x K): one box of BN rows x BK values, as A's */
#define B_BOXES 1
#define B_BOX (BN * BK * ELEM)
#define B_BOX_ROWS BN
#define B_BOX_COLS BK
#define B_X(i, q) ((i) * BK)
#define B_Y(i, q) col0
#define B_DESC(base, j, kk) \
    wgmma_desc_swz((base) + (uint)(A_BYTES + (j) * WGN * SWZA + (kk) * ELEM), 16u, 8 * SWZA, SWZA)
#endif
/* A's halves in memory and in a slot: with SPLIT its hi, then its lo rows, unless A is split
 * in registers (PACKA 3: its raw values, one box) */
#define A_HALVES (1 + (SPLIT && PACKA != 3))
#define A_BYTES (A_BOX * A_HALVES)
#define B_BYTES (B_BOXES * B_BOX * (1 + SPLIT))
/* tf32x3 with PACKB 2: B's lo box is not copied but made in the slot (mma/tma_round.h) */
#define B_SPLIT_LOCAL (SPLIT && PACKB == 2)
#define STAGE_BYTES (A_BYTES + B_BYTES)

#endif
