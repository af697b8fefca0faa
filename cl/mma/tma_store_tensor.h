/* Step 10's stores of C by the copy engine (TSTORE = 1): a tensor-map store of each consumer's
 * 64 rows.  Included by cl/10_wgmma_tma.cl after mma/tma_store.h.
 *
 * Why: with PERSIST a group runs problem after problem, and the next problem's copies are in
 * flight while the consumers store C; but the consumers themselves store it, value pair by
 * value pair, and start the next problem's wgmmas only when the last store has issued.  A
 * batch of 64 problems of 512 x 512 x 64 (bf16) ran 0.025 ms with its stores and 0.011 ms
 * without them (bench/results/2026-11-24_nvidia-h100/persist/).  Handing each staged row to
 * the copy engine (cp.async.bulk, 128 bytes a row) lost: one instruction moved too little.
 *
 * Here each consumer warpgroup writes its whole 64 x BN block, finished (alpha, bias,
 * activation) and in C's type, to local memory as a TMA load would have put it: boxes of 64
 * rows x 128 bytes, 128-byte swizzle (the 16-byte chunk c of row r at chunk c ^ (r % 8), so
 * that the 8 rows of a warp's pairs fall in different banks).  One work-item then hands the
 * boxes to the copy engine (cp.async.bulk.tensor through C's map at maps + 256), which writes
 * them to C, leaving out whatever lies outside the matrix, while the warpgroup goes on to the
 * next problem's wgmmas.  The block is only written again after the engine has read it
 * (TMA_STORE_WAIT_READ, a whole problem later).
 *
 * The values and their rounding are gemm_store2's with beta 0, so the bits are the same.
 * Where the copy engine cannot store C (beta != 0, C not 16-byte aligned, a leading dimension
 * or batch stride not a multiple of 16 bytes) the host passes cmap = 0 and the kernel's other
 * stores run (STAGED or direct).
 *
 * The emulation writes the same boxes and copies them out itself, element by element. */
#ifndef CLGEMM_TMA_STORE_TENSOR_H
#define CLGEMM_TMA_STORE_TENSOR_H

#define TS_CSIZE (GEMM_CTYPE ? 2 : 4)    /* bytes of one value of C */
#define TS_BOX_COLS (128 / TS_CSIZE)     /* a box: 64 rows x 128 bytes */
#define TS_BOX_BYTES (64 * 128)
#define TS_REGION ((BN / TS_BOX_COLS) * TS_BOX_BYTES) /* one consumer's block */
/* Whether the blocks fit where they go (see TS_OWN below): with PERSIST after the ring, in
 * the device's local memory; else in the ring. */
#define TS_FITS_LOCAL (TMA_RING_LOCAL + CONSUMERS * TS_REGION <= CLGEMM_LOCAL_BYTES - 16)
#define TS_FITS_RING (CONSUMERS * TS_REGION <= STAGES * STAGE_BYTES)
/* The default: on for a 16-bit C wherever the blocks fit (on the H100 2-4% off 4096^3 and
 * the Llama M = 4096 shapes, 4% off a fused bias_gelu), off for an fp32 C, whose twice as many
 * bytes the engine stored no faster than the staged stores (bench/results/
 * 2026-11-24_nvidia-h100/tstore/probe33.txt). */
#ifndef TSTORE
#define TSTORE                                                                               \
    (GEMM_CTYPE != 0 && !GEMM_TRANS_C && !GEMM_KSPLIT && BN % TS_BOX_COLS == 0 &&           \
     (PERSIST ? TS_FITS_LOCAL : TS_FITS_RING))
#endif
#if TSTORE != 0 && TSTORE != 1
#error "gemm_wgmma_tma: TSTORE is 0 or 1"
#endif
#if TSTORE && (GEMM_TRANS_C || GEMM_KSPLIT)
#error "gemm_wgmma_tma: TSTORE stores a row-major C, not SWAP's C^T nor a split of K"
#endif
#if TSTORE && BN % TS_BOX_COLS != 0
#error "gemm_wgmma_tma: TSTORE needs BN a multiple of 128 bytes of C (32 fp32, 64 16-bit values)"
#endif
/* Where the blocks go: STORE_AT (mma/tma_store.h), with PERSIST room of their own after the
 * ring (shared with the staged chunks where those run too), else the ring, free once every
 * wgmma has read it. */
#if TSTORE
#define TS_OWN (PERSIST ? CONSUMERS * TS_REGION : 0)
#if STORE_AT % 1024 != 0
#error "gemm_wgmma_tma: TSTORE's boxes need the ring to end on 1024 bytes (the swizzle's repeat)"
#endif
#if !PERSIST && !TS_FITS_RING
#error "gemm_wgmma_tma: TSTORE's blocks (CONSUMERS x 64 x BN values of C) exceed the ring"
#endif
#if PERSIST && !TS_FITS_LOCAL
#error "gemm_wgmma_tma: PERSIST's TSTORE blocks and STAGES slices exceed the device's local memory"
#endif
#else
#define TS_OWN 0
#endif
/* The room after the ring: the larger of the staged chunks' and the blocks'. */
#define ROOM_OWN (STORE_OWN > TS_OWN ? STORE_OWN : TS_OWN)

/* Byte offset of value (r, c) of a consumer's block: box c / TS_BOX_COLS, its 16-byte chunk
 * swizzled by the row. */
#define TS_AT(r, c)                                                                          \
    (((c) / TS_BOX_COLS) * TS_BOX_BYTES + (r) * 128 +                                        \
     (((((c) % TS_BOX_COLS) * TS_CSIZE / 16) ^ ((r) & 7)) << 4) + ((c) * TS_CSIZE) % 16)

/* Two neighbours (x, y) in C's type at local byte address p. */
inline void ts_put2(__local uchar *p, const float2 v)
{
    GEMM_C_PUT2_IN(__local, p, v);
}

#if !CLGEMM_EMULATE_TMA
#if GEMM_BATCHED
#define TS_ISSUE_BOX(x, y, src) TMA_STORE_3D(maps + 256, x, y, prob, src)
#else
#define TS_ISSUE_BOX(x, y, src) TMA_STORE_2D(maps + 256, x, y, src)
#endif
/* Work-item sl_ 0 of the warpgroup: the boxes to the copy engine, one group. */
#define TS_HAND_OVER(block)                                                                  \
    do {                                                                                     \
        if (sl_ == 0) {                                                                      \
            const uint src_ = wgmma_base_ + (uint)((block) - wgmma_arena_w_);                \
            if (!map_kept) /* published by the producer (TMA_MAPS_PUBLISH) */                \
                TMA_MAP_ACQUIRE(maps + 256);                                                 \
            _Pragma("unroll") for (int b = 0; b < BN / TS_BOX_COLS; ++b)                     \
                TS_ISSUE_BOX(col0 + b * TS_BOX_COLS, row0 + wg * 64,                         \
                             src_ + (uint)(b * TS_BOX_BYTES));                               \
            TMA_STORE_COMMIT();                                                              \
        }                                                                                    \
    } while (0)
/* The engine has read the block this warpgroup handed over last (PERSIST's next problem
 * writes it again; at the end, the group's local memory must outlive the reads). */
#define TS_WAIT_READ()                                                                       \
    do {                                                                                     \
        if (tid % WGMMA_THREADS == 0)                                                        \
            TMA_STORE_WAIT_READ();                                                           \
    } while (0)
#else /* the emulation: the warpgroup copies its block out, inside the matrix only */
#define TS_HAND_OVER(block)                                                                  \
    do {                                                                                     \
        if (wg < CONSUMERS && cmap)                                                          \
            for (int e_ = sl_; e_ < 64 * BN; e_ += WGMMA_THREADS) {                          \
                const int r_ = e_ / BN, c_ = e_ % BN;                                        \
                if (wg * 64 + r_ < rows_left && c_ < cols_left)                              \
                    C[(wg * 64 + r_) * ldc + c_] =                                           \
                        *(__local const gemm_c_t *)((block) + TS_AT(r_, c_));                \
            }                                                                                \
    } while (0)
#define TS_WAIT_READ() ((void)0)
#endif

/* This work-item's values into its warpgroup's block, finished as gemm_store2 finishes them
 * with beta 0 (rows sr_ and sr_ + 8, columns c8 * 8 + sc_ of each wgmma's WGN). */
#define TS_PUT_BLOCK(block)                                                                  \
    do {                                                                                     \
        _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                    \
        _Pragma("unroll") for (int c8 = 0; c8 < WGN / 8; ++c8) {                             \
            const float *d_ = &TMA_RESULT[j][4 * c8];                                        \
            const int c_ = j * WGN + c8 * 8 + sc_;                                           \
            _Pragma("unroll") for (int h = 0; h < 2; ++h) {                                  \
                const int r_ = sr_ + 8 * h;                                                  \
                ts_put2((block) + TS_AT(r_, c_),                                             \
                        (float2)(gemm_finish1(d_[2 * h], alpha, 0.0f, C,                     \
                                              gemm_bias1(bias, wg * 64 + r_, c_)),           \
                                 gemm_finish1(d_[2 * h + 1], alpha, 0.0f, C,                 \
                                              gemm_bias1(bias, wg * 64 + r_, c_ + 1))));     \
            }                                                                                \
        }                                                                                    \
    } while (0)

/* The whole store of one problem's tile.  Its barriers are met by every work-item that meets
 * the staged stores' (the emulation's producer work-items too).  The emulation runs it
 * whatever cmap says, the work inside only with cmap, and then the staged stores' barriers
 * with their work only without (STORE_MINE: whether a work-item stores by them): PoCL
 * computed wrong sums, and wrote outside its buffers, with these barriers in a branch taken
 * on cmap. */
#if TSTORE && CLGEMM_EMULATE_TMA
#define STORE_MINE (wg < CONSUMERS && !cmap)
#else
#define STORE_MINE (wg < CONSUMERS) /* no constant operand: a warning fails oclgrind */
#endif
#define TMA_STORE_TENSOR()                                                                   \
    do {                                                                                     \
        __local uchar *block_ = wgmma_arena_w_ + STORE_AT +                                  \
                                (wg < CONSUMERS ? wg : 0) * TS_REGION;                       \
        STORE_LANE();                                                                        \
        if (PERSIST) /* the block of the problem before has been read */                     \
            TS_WAIT_READ();                                                                  \
        TS_SYNC_BEFORE();                                                                    \
        if (wg < CONSUMERS && cmap)                                                          \
            TS_PUT_BLOCK(block_);                                                            \
        TMA_PROXY_FENCE_TS(); /* the writes, before the engine's reads */                    \
        STORE_SYNC_WG();                                                                     \
        TS_HAND_OVER(block_);                                                                \
        TS_SYNC_AFTER();                                                                     \
    } while (0)
/* Before the block is written: with PERSIST the warpgroup's own wait (its block lies after
 * the ring), else every consumer's wgmmas have read the ring.  After the hand-over only the
 * emulation waits, for its own copies. */
#if PERSIST
#define TS_SYNC_BEFORE() STORE_SYNC_WG()
#else
#define TS_SYNC_BEFORE() STORE_SYNC_ALL()
#endif
#if CLGEMM_EMULATE_TMA
#define TMA_PROXY_FENCE_TS() ((void)0)
#define TS_SYNC_AFTER() STORE_SYNC_WG()
#else
#define TMA_PROXY_FENCE_TS() TMA_PROXY_FENCE()
#define TS_SYNC_AFTER() ((void)0)
#endif

#endif
