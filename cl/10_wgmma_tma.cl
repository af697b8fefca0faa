#include "common.h"
#include "mma/wgmma.h"
#include "mma/tma.h"

/* Step 10: step 9's wgmma fed by Hopper's tensor memory accelerator (TMA), through a ring of
 * mbarriers, by one producer warp.  16-bit data (DTYPE 1 f16, 2 bf16) as in step 9, and fp32
 * data (DTYPE 0) as TF32 or, with SPLIT = 1, tf32x3; fp32 accumulation, C in fp32.
 *
 * What step 9 left: every work-item computed addresses, issued its own swizzled cp.async copies
 * and waited for them, and a barrier per K slice joined producers and consumers, who were the
 * same work-items.  What changes, and why it is faster:
 *
 *  1. TMA bulk copies.  One instruction (cp.async.bulk.tensor), issued by one work-item,
 *     copies a whole box into local memory in wgmma's swizzled layout and zero-fills what lies
 *     outside the matrix: no work-item spends registers on addresses, no edge cases.  The
 *     host encodes the tensor maps (host/lib/tensor_map.h); the producer puts the
 *     buffers' addresses in on the device (TMA_MAPS_PUBLISH).
 *  2. An mbarrier ring instead of barriers.  STAGES slots, each with a "full" mbarrier (the
 *     copy engine counts the slice's bytes on it) and an "empty" one (each consumer warp
 *     arrives when its wgmmas on the slot completed).  Nobody else waits for anybody: the
 *     consumers drift freely, INFLIGHT slices of wgmmas running while they wait for the next.
 *  3. One producer warp after the BM/64 consumer warpgroups issues every copy, up to STAGES
 *     slices ahead of the tensor cores.
 *  4. Deep rings in 227 KiB.  NVIDIA's OpenCL reports 48 KiB per work-group, but Hopper allows
 *     227 KiB (bench/probes/big_local.c; the host passes CLGEMM_LOCAL_BYTES): room for
 *     cuBLAS's 128 x 256 tile with 128-byte rows (the widest swizzle) three or four deep.
 *  5. Stores through local memory (mma/tma_store.h).  The accumulators leave each work-item
 *     two columns of two rows: stored directly, a warp touches eight lines per instruction.
 *     Staged through the free ring, a warp stores 64 neighbours of one row; a batch of
 *     short-K problems, almost all stores, runs 1.07x to 1.4x faster.
 * Measurements: docs/results.md, step 10.
 *
 * Local layout: step 9's swizzled layouts, the swizzle as wide as a box row.  A's box: BM rows
 * x BK values (rows of 32, 64 or 128 bytes); 16-bit B N-major, a box of BK k-rows x 64 values
 * (128 bytes) per 64 columns.  Transposed 16-bit operands are read where they lie
 * (GEMM_TRANS_A / GEMM_TRANS_B, cl/common.h):
 * 16-bit wgmma takes either operand K-major or MN-major (imm-trans-a / imm-trans-b), so the
 * TMA boxes follow the stored matrix and the immediates say what landed.  A stored K x M lands
 * M-major, one box of BK k-rows x 64 m per consumer (as B's N-major boxes); B stored N x K
 * (X W^T, every PyTorch Linear) K-major, one box of BN rows x BK values (as A's).  No pass
 * over memory, no other instruction: every transpose runs the same loop at the same speed.
 *
 * TF32 (DTYPE 0).  TF32 wgmma reads both operands only K-major, and no TMA copy transposes.
 * So a pre-pass (mma/tf32_pack.h) writes B^T (N x K) into scratch, rounded to tf32 to nearest
 * on the way, and with PACKA = 1 A likewise; the kernel is then the 16-bit one with 4-byte
 * values, both operands K-major (B^T's box: BN rows x BK values).  With PACKA = 0 the tensor
 * core truncates A as given (faster, a larger error bound).  The pre-pass is timed with it.
 * Where M is small the pre-pass costs more than the GEMM: it reads and writes all of B, which
 * the GEMM then reads once more.  PACKA / PACKB = 2 read an operand stored K-major where it
 * lies, and the consumers round each slice to tf32 in local memory before their wgmmas read
 * it: the same values as the pre-pass's, for some local-memory traffic per slice.  With
 * ROUNDER = 1 a warpgroup of its own does that rounding a slot ahead, so that a consumer
 * waits for a rounded slot instead of rounding it on its way to the wgmmas.
 *
 * tf32x3 (SPLIT = 1): x = hi + lo, hi = tf32(x), lo = tf32(x - hi), and a * b ~ a_lo * b_hi +
 * a_hi * b_lo + a_hi * b_hi.  The pre-pass writes the residuals in the rows below the values
 * (rows M.. and N.., the same maps); a slot holds four boxes and each k8 step issues three
 * wgmmas, small terms first.  The tensor core's additions do not round to nearest, so chains
 * of PROMOTE slices are summed from zero and each finished chain is added to fp32 sums.
 * With PACKB = 2 the copy brings B's values alone and whoever rounds the slot splits them
 * there, the residuals into the lo box (mma/tma_round.h): a small M then has no pass at all.
 *
 * Why GM: groups start in launch order, so the resident ones span a few block rows and every
 * block column, all of B, which at large N no longer fits in L2.  Bands of GM block rows,
 * walked column by column, keep them on GM rows of A and a few columns of B.
 *
 * Emulation (CLGEMM_EMULATE_TMA): the same layouts; every work-item copies a share of each box
 * (mma/tma.h) between two barriers (a CPU cannot spin on an mbarrier of its own group).
 *
 * Launch: TMA_THREADS = (BM/64) * 128 + 32 + ROUNDERS work-items per group (the consumers,
 * the producer warp, the rounders; with SETMAXNREG the producer is a warpgroup: 128);
 * group (x, y) computes, before the GM remapping, C's block at block column
 * x, row y; with GEMM_BATCHED, of problem z (3-D tensor maps); with GEMM_KSPLIT, of K's
 * slice z, and the last group of a block to finish adds the slices up (mma/tma_ksplit.h: one
 * launch where a split plan elsewhere takes two).  Parameters (-D):
 *   DTYPE    0: fp32 (TF32 on the packed operands), 1: f16, 2: bf16
 *   BM x BN  C's block: BM 64 or 128 (64 per consumer); BN a multiple of WGN, and of 64
 *            where B lands N-major (at most 256 where it lands K-major: one box)
 *   BK       the K slice: 16, 32 or 64 values (TF32: 8, 16 or 32), rows of 32, 64, 128 bytes
 *   WGN      the N of one wgmma (8 .. 256; at least 64 where B lands N-major)
 *   STAGES   K slices resident in local memory (2 .. 16, as many as CLGEMM_LOCAL_BYTES holds)
 *   INFLIGHT slices whose wgmmas may still run when a consumer waits for the next (0 .. 3)
 *   GM       bands of GM block rows, walked column by column (1: as launched)
 *   SPLIT    DTYPE 0 only; 1: tf32x3 on the packed hi / lo halves
 *   PROMOTE  with SPLIT: slices per chain summed from zero before the fp32 add (64 k)
 *   PACKA    DTYPE 0 only; 1: A rounded by the pre-pass, 0: as given (the tensor core
 *            truncates it), 2: as given, rounded in local memory (where the host can),
 *            3: as given, rounded in registers on its way to wgmma (mma/tma_a_regs.h)
 *   PACKB    1 or 2, as for A (no 0: tf32t allows one truncated operand; no 3: B has no
 *            register form); with SPLIT, 2 splits B in local memory (mma/tma_round.h)
 *   ROUNDER  with PACKA or PACKB 2, who rounds each slot (mma/tma_round.h): 0 the consumers
 *            on their way to the wgmmas, 1 a warpgroup of its own as the slot lands
 *   SETMAXNREG  1 (BM 128, no ROUNDER): a producer warpgroup hands its registers to the
 *            consumers (setmaxnreg), for tiles whose sums and fragments outgrow 168 each
 *   STAGED   1: C stored through local memory (the default where it fits, less GELU's), 0: directly
 *   PERSIST  with a batch: 0, a group per tile and problem; G > 0, about G groups per compute
 *            unit (the host launches fewer problems deep), each running its tile of every
 *            Z-th problem, its producer copying the next problem's slices while the
 *            consumers store the last one's C
 *   TSTORE   1: C handed to the copy engine through a tensor map (mma/tma_store_tensor.h)
 *            where the host can map it (beta 0, rows on 16 bytes), else stored as STAGED says
 *            (the default for a 16-bit C, where the blocks fit; 0 for an fp32 C)
 * The defaults, per form (the registry's; BM 128; PACKA 1; local memory per group last):
 *            BN   BK  WGN  STAGES  INFLIGHT  GM
 *   16-bit  256   64  256     3       0      32    144 KiB
 *   TF32    256   32  256     4       1      16    192 KiB
 *   tf32x3  128   32  128     3       1      16    192 KiB */
#include "mma/tma_config.h" /* defaults, warpgroup roles, operand layouts and boxes */
#include "mma/wgmma_tma_checks.h"

#if DTYPE == 0
#include "mma/tf32_pack.h"
#endif

#include "mma/tma_copies.h"
#include "mma/tma_round.h"
#include "mma/tma_store.h"
#include "mma/tma_store_tensor.h"
#include "mma/tma_ksplit.h"

#if PACKA == 3 /* A rounded in registers: mma/tma_a_regs.h's TMA_SLICE_MMA */
#include "mma/tma_a_regs.h"
#else
/* One consumer warpgroup's wgmmas on the slot at byte address base: BK / WG_K k steps, WG_NI
 * wgmmas of 64 x WGN each, one commit group. */
#define TMA_SLICE_MMA(base)                                                                  \
    do {                                                                                     \
        WGMMA_FENCE();                                                                       \
        _Pragma("unroll") for (int kk = 0; kk < BK; kk += WG_K) {                            \
            const ulong da_ = A_DESC(base, kk);                                              \
            _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                \
                TMA_MMA(acc[j], da_, B_DESC(base, j, kk));                                   \
        }                                                                                    \
        WGMMA_COMMIT();                                                                      \
    } while (0)
#endif

#include "mma/tma_loops.h"

__kernel __attribute__((reqd_work_group_size(TMA_THREADS, 1, 1)))
void gemm_wgmma_tma(const int M, const int N, const int K, const float alpha,
                    __global const elem_t *restrict A, const int offA, const int lda,
                    __global const elem_t *restrict B, const int offB, const int ldb,
                    const float beta,
                    __global gemm_c_t *restrict C, const int offC, const int ldc,
                    __global const gemm_c_t *restrict bias, const int offBias,
                    const int strideA, const int strideB, const int strideC,
                    const tma_maps_arg maps_in, const int kslice,
                    __global float *restrict partials, const int ldp,
                    __global int *restrict tile_counts, const int batch, const int cmap,
                    const int map_slot_count, __global uchar *restrict map_slots,
                    const int map_keep, const int map_kept)
{
    __global const elem_t *const A0_ = A, *const B0_ = B;
    __global gemm_c_t *const C0_ = C;
#if CLGEMM_EMULATE_TMA
    __global const uchar *const maps = map_slots; /* unread: the emulation copies from A, B */
    (void)maps_in, (void)map_slot_count, (void)map_keep, (void)map_kept;
#else
    /* The maps this group copies through: those an earlier call on this queue kept, the same
     * bytes (map_kept, mma/tma.h), else its own slot, which it publishes. */
    __global uchar *const kept = map_slots + TMA_MAP_SLOT_BYTES * (map_slot_count + map_keep);
    __global uchar *const maps =
        map_kept ? kept : map_slots + TMA_MAP_SLOT_BYTES * TMA_MAP_SLOT;
#endif
    /* Swizzle atoms must sit on their pattern's repeat (1024 bytes for 128-byte rows).  With
     * PERSIST the staged stores have their own room after the ring, which by then already
     * fills with the next problem's slices. */
    __local float4 arena4[(STAGES * STAGE_BYTES + ROOM_OWN) / 16] __attribute__((aligned(1024)));
    __local ulong bars[(2 + ROUNDER) * STAGES]; /* full[s], empty[s], with ROUNDER rounded[s] */
#if GEMM_KSPLIT
    __local int ksplit_last_[1]; /* whether this group finishes its block (tma_ksplit.h) */
#endif

    const int tid = get_local_id(0);
    WGMMA_SETUP(arena4, tid);
    /* A problem narrower than the tile (N < BN, B read K-major, no lo half): the host's map
     * copies B in boxes of N rows rounded up to 8 (host/lib/tma_args.c), not BN, because rows
     * past the matrix, which the copy engine fills with zeros, cost a call as if they were
     * data (bf16 32x4096x4096 on a 128-column tile: 0.033 ms against 0.016 on a 32-column one,
     * probe195).  No copy writes the slots' rows past them: they are zeroed once, below, and
     * hold what a whole box past the matrix would have brought.  Builds whose B box is always
     * whole (B_NARROWS 0) keep none of this code. */
#define B_NARROWS (!B_MN && !SPLIT)
#if B_NARROWS
    const int b_rows_up = (N + 7) / 8 * 8;
    const int b_box_rows = b_rows_up >= BN ? B_BOX_ROWS : b_rows_up;
#else
    const int b_box_rows = B_BOX_ROWS;
#endif
    const uint stage_tx = (uint)(STAGE_BYTES - (B_BOX_ROWS - b_box_rows) * B_BOX_COLS * ELEM -
                                 B_SPLIT_LOCAL * B_BOX); /* no lo box copied: split here */
    const int wg = tid / WGMMA_THREADS; /* from CONSUMERS on: the producer warp, the rounders */
#if GM > 1
    const int across = get_num_groups(0), down = get_num_groups(1);
    const int lin = get_group_id(1) * across + get_group_id(0);
    const int band = lin / (GM * across), first = band * GM;
    const int band_rows = down - first < GM ? down - first : GM, in_band = lin - first * across;
    const int row0 = (first + in_band % band_rows) * BM, col0 = (in_band / band_rows) * BN;
#else
    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
#endif
#if GEMM_KSPLIT /* slice kpart of K: kslice values (a multiple of BK), tma_ksplit.h */
    const int kpart = (int)get_group_id(2), kfirst = kpart * (kslice / BK);
    const int kleft = K - kpart * kslice;
    const int slices = ((kleft < kslice ? kleft : kslice) + BK - 1) / BK;
#else
    const int kfirst = 0, slices = (K + BK - 1) / BK;
#endif

    float acc[WG_NI][WGN / 2];
#if PROMOTE /* the fp32 sums of the finished chains; acc holds the chain in progress */
    float sums[WG_NI][WGN / 2];
#endif
    GEMM_BIAS_MOVE(row0, col0);
    const int rows_left = M - row0, cols_left = N - col0;
    /* The edge path's element-wise stores also serve a C whose rows break float2 alignment
     * (the host writes such a C in place rather than through a copy). */
    const bool edge = rows_left < BM || cols_left < BN || ((offC | ldc) & 1);

    /* B's rows past a narrow box, in every slot (none where the box is whole); the barrier
     * that follows the set-up (the emulation's first slice's) orders them before any read, and
     * no copy writes there.  No barrier of their own: on PoCL a barrier under a branch grew
     * the emulated kernels' build (test_layouts, uncached: 152 s with one, 92 s without). */
#if B_NARROWS
    const int tail_from = A_BYTES + b_box_rows * B_BOX_COLS * ELEM;
    const int tail_vecs = (A_BYTES + B_BOX - tail_from) / 16; /* per slot, 16 bytes each */
    for (int s = 0; s < STAGES; ++s) /* (no division by tail_vecs: 0 in most builds) */
        for (int j = tid; j < tail_vecs; j += TMA_THREADS)
            arena4[(s * STAGE_BYTES + tail_from) / 16 + j] = (float4)(0.0f);
#endif

#if !CLGEMM_EMULATE_TMA
    /* Kept maps are already whole in global memory: their fetch can start before the set-up
     * below rather than wait for the first copy.  A small call's start is much of its time:
     * 16-bit batches of 512 x 128^2 x 64 ran 4-5% faster (probes 155-156, bench/results/
     * 2026-11-27_nvidia-h100). */
    if (map_kept && tid == PRODUCER0) {
        TMA_MAP_PREFETCH(maps);
        TMA_MAP_PREFETCH(maps + 128);
        if (cmap)
            TMA_MAP_PREFETCH(maps + 256);
    }
    const uint full0 = TMA_LOCAL_ADDR(bars), empty0 = full0 + 8u * STAGES;
    if (tid == 0) {
        for (int s = 0; s < STAGES; ++s) {
            TMA_BAR_INIT(full0 + 8u * s, 1);
            TMA_BAR_INIT(empty0 + 8u * s, CONSUMERS * 4);
#if ROUNDER
            TMA_BAR_INIT(empty0 + 8u * (STAGES + s), ROUNDERS);
#endif
        }
        TMA_BAR_INIT_FENCE();
    }
#if B_NARROWS
    WGMMA_PROXY_FENCE(); /* the zeroed rows above: wgmma reads them through the async proxy */
#endif
    barrier(CLK_LOCAL_MEM_FENCE);

    /* The host encodes the maps with a placeholder address (OpenCL does not tell it a buffer's):
     * the producer writes the real ones in and publishes the maps to the group's slot
     * (mma/tma.h), through the ring's first slot, which no copy has filled yet.  A kernel of
     * its own did this before, at the price of a launch per call. */
#define PUBLISH_MAPS()                                                                       \
    if (!map_kept) {                                                                         \
        TMA_MAPS_PUBLISH(maps, TMA_MAPS_KEEPER && map_keep >= 0 ? kept : 0, maps_in, arena4,  \
                         A0_ + offA, B0_ + offB, C0_ + offC, K > 0, cmap);                   \
        TMA_MAP_ACQUIRE(maps);                                                               \
        TMA_MAP_ACQUIRE(maps + 128);                                                         \
    }
    if (IS_PRODUCER(tid)) { /* the producer: one work-item issues every copy */
#if SETMAXNREG /* the publish holds the maps in registers: before the producer gives them up */
        if (tid == PRODUCER0)
            PUBLISH_MAPS();
        TMA_SETMAXNREG_DEC();
#endif
        if (tid == PRODUCER0) {
#if !SETMAXNREG
            PUBLISH_MAPS();
#endif
            FOR_EACH_PROBLEM {
                (void)prob; /* read by the copies of a batch */
                for (int i = 0; i < slices; ++i) {
                    const int g = run * slices + i, s = g % STAGES;
                    if (g >= STAGES) /* the consumers' release of this slot's previous slice */
                        TMA_WAIT(empty0 + 8u * s, (uint)((g / STAGES - 1) & 1));
                    const uint full = full0 + 8u * s;
                    const uint dst = wgmma_base_ + (uint)(s * STAGE_BYTES);
                    TMA_EXPECT(full, stage_tx);
                    TMA_COPY_SLICE(kfirst + i, dst);
                }
            }
        }
        return;
    }
#if ROUNDER
    TMA_ROUNDER(); /* the rounders' loop; they return (mma/tma_round.h) */
#endif
    TMA_SETMAXNREG_INC(); /* the producer's registers (SETMAXNREG) */
    const int lane = tid % 32;
#endif

    FOR_EACH_PROBLEM {
        MOVE_TO_PROBLEM(prob);
#pragma unroll
        for (int j = 0; j < WG_NI; ++j)
#pragma unroll
            for (int q = 0; q < WGN / 2; ++q) {
                acc[j][q] = 0.0f;
#if PROMOTE
                sums[j][q] = 0.0f;
#endif
            }
#if !CLGEMM_EMULATE_TMA
        for (int i = 0; i < slices; ++i) {
            const int g = run * slices + i, s = g % STAGES;
            TMA_WAIT_ROUNDED(s, (uint)((g / STAGES) & 1)); /* copied, and rounded (tma_round.h) */
            TMA_SLICE_MMA(wgmma_base_ + (uint)(s * STAGE_BYTES));
            /* At most the wgmmas of this slice and of the INFLIGHT - 1 before it still run:
             * slice i - INFLIGHT's slot is free. */
            WGMMA_WAIT(INFLIGHT);
            if (TMA_CHAIN_CLOSES(i)) { /* the chain's last wgmmas must be done before its sum */
                WGMMA_WAIT(0);
                TMA_PROMOTE();
            }
            if (i >= INFLIGHT && lane == 0)
                TMA_ARRIVE(empty0 + 8u * (uint)((g - INFLIGHT) % STAGES));
        }
        WGMMA_WAIT(0);
#if PERSIST /* the last INFLIGHT slots, for the producer's next problem */
        for (int i = slices > INFLIGHT ? slices - INFLIGHT : 0; i < slices; ++i)
            if (lane == 0)
                TMA_ARRIVE(empty0 + 8u * (uint)((run * slices + i) % STAGES));
#endif
#else
        for (int i = 0; i < slices; ++i) {
            const uint dst = wgmma_base_ + (uint)((i % STAGES) * STAGE_BYTES);
            barrier(CLK_LOCAL_MEM_FENCE);
            TMA_COPY_SLICE(kfirst + i, dst);
            barrier(CLK_LOCAL_MEM_FENCE);
#if ROUND_LOCAL
            TMA_ROUND_SLOT(i % STAGES, TMA_THREADS);
            barrier(CLK_LOCAL_MEM_FENCE);
#endif
            if (wg < CONSUMERS) {
                TMA_SLICE_MMA(dst);
                if (TMA_CHAIN_CLOSES(i))
                    TMA_PROMOTE();
            }
        }
#if !GEMM_KSPLIT && !STAGED && !PERSIST && !TSTORE /* else the producer's stay longer */
        if (wg >= CONSUMERS)
            return;
#endif
#endif
#pragma unroll
        for (int j = 0; j < WG_NI; ++j)
#pragma unroll
            for (int q = 0; q < WGN / 2; ++q)
                WGMMA_KEEP(TMA_RESULT[j][q]);
#if GEMM_KSPLIT /* the emulation's producer work-items leave here, after the count */
        TMA_KSPLIT_FINISH();
#endif

        GEMM_C_MOVE(row0, col0);
#if TSTORE && CLGEMM_EMULATE_TMA /* both, each doing its work or not (tma_store_tensor.h) */
        TMA_STORE_TENSOR();
#elif TSTORE
        if (cmap) {
            TMA_STORE_TENSOR(); /* by the copy engine, where the host could map C */
            continue;
        }
#endif
#if STAGED
        TMA_STORE_STAGED();
#else
        if (STORE_MINE) /* the emulation's producer work-items, with PERSIST */
            TMA_STORE_DIRECT();
#endif
    }
#if TSTORE
    if (cmap)
        TS_WAIT_READ(); /* the engine has read the last block before the group ends */
#endif
}
