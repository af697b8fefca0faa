/* Step 10's stores of C through local memory (STAGED = 1).  Included by cl/10_wgmma_tma.cl
 * after its definitions.
 *
 * Why: wgmma leaves each work-item two neighbouring columns of rows r and r + 8, so a warp
 * storing its accumulators straight to memory writes 8 rows x 8 bytes (fp32) or 8 rows x 4
 * bytes (16-bit C) per instruction: eight pieces of eight different 128-byte lines.  Where
 * C is transposed (a column-major C, or SWAP's C^T) the pieces are single values.  The
 * memory system pays per line, not per byte: a batch of 512 x 512 x 64 problems, whose work
 * is almost all stores, ran 2.5x longer with its stores than without them, and with a 16-bit
 * C (half the bytes) slower than with an fp32 one
 * (bench/results/2026-11-24_nvidia-h100/staged/probe10.txt).
 *
 * So each consumer warpgroup first writes its 64 rows to local memory, a chunk of STORE_CW
 * columns at a time (the ring's slots are free once every wgmma has run), and then its 128
 * work-items store the chunk along C's rows in memory: pairs of neighbours, a warp covering
 * 64 values of one row (or of one column of a transposed C, which lies contiguous).  The
 * values and the arithmetic of each element (cl/epilogue.h) are unchanged, so are the bits.
 *
 * Bank conflicts: a row of the staged chunk is STORE_CW + 8 floats long (a multiple of 8
 * banks plus 8), so the pairs that a half-warp writes (rows g = 0..3, columns 2t) fall in 32
 * different banks; a transposed chunk's columns are 64 + 4 long, so the single values of a
 * warp (8 rows, 4 columns) fall in 32 different banks.  The reads are consecutive pairs.
 *
 * Needs the kernel's tid, wg, TMA_RESULT, C, ldc, bias, alpha, beta and wgmma_arena_w_;
 * rows_left, cols_left and edge as the direct stores use them. */
#ifndef CLGEMM_TMA_STORE_H
#define CLGEMM_TMA_STORE_H

#define STORE_CW (WGN < 64 ? WGN : 64) /* columns of a chunk */
#if GEMM_TRANS_C
#define STORE_LD (64 + 4)              /* floats between the chunk's columns */
#define STORE_REGION (STORE_CW * STORE_LD * 4)
#define STAGE_PUT(s, r, c, x, y) ((s)[(c) * STORE_LD + (r)] = (x), (s)[((c) + 1) * STORE_LD + (r)] = (y))
#else
#define STORE_LD (STORE_CW + 8)        /* floats between the chunk's rows */
#define STORE_REGION (64 * STORE_LD * 4)
#define STAGE_PUT(s, r, c, x, y) (*(__local float2 *)((s) + (r) * STORE_LD + (c)) = (float2)((x), (y)))
#endif
/* Staged where every consumer's chunk fits in the ring (always, in the registry's forms), less
 * GELU's into an fp32 C: the direct stores keep every value in a register and interleave each
 * GELU's exp and division with the others', where a staged chunk's arithmetic waits at the
 * chunk's barriers; staged GELU is the slower one (bench/results/2026-11-24_nvidia-h100/gelu/;
 * bf16 4096^3 0.2017-0.2033 ms against 0.1994-0.1999 in probe275).  A 16-bit C's direct stores
 * write 4-byte pieces of eight rows, and for TF32 staging pays under GELU too: 4096^3 with a
 * bf16 C 0.4088 ms against 0.4155, column-major 0.4045 against 0.4143, an f16 C alike (probes
 * 275-276 in bench/results/2026-11-28_nvidia-h100/probes).  16-bit data tied there, and
 * staged its GELU chunks went through the stack in clang's PTX with every wgmma serialised
 * (tests/test_wgmma_ptxas.sh), so they keep the direct stores, as PERSIST's batches do, whose
 * direct stores overlap the next problem (bf16 64 x 512^2 x 64 0.0256 staged, 0.0248 not). */
#ifndef STAGED
#define STAGED (CONSUMERS * STORE_REGION <= STAGES * STAGE_BYTES && \
                (GEMM_ACT != 2 || (GEMM_CTYPE != 0 && DTYPE == 0 && !PERSIST)))
#endif
#if STAGED && CONSUMERS * STORE_REGION > STAGES * STAGE_BYTES
#error "gemm_wgmma_tma: STAGED needs CONSUMERS x 64 x (STORE_CW + 8) floats within the ring"
#endif
/* With PERSIST the ring holds the next problem's slices while C is stored: C's stores get room
 * of their own after it (STORE_AT bytes into the arena; the staged chunks take STORE_OWN of
 * it, mma/tma_store_tensor.h's blocks TS_OWN), else they use the ring. */
#define STORE_AT (PERSIST ? STAGES * STAGE_BYTES : 0)
#if PERSIST && STAGED
#define STORE_OWN (CONSUMERS * STORE_REGION)
#else
#define STORE_OWN 0
#endif
#if TMA_RING_LOCAL + STORE_OWN > CLGEMM_LOCAL_BYTES - 16
#error "gemm_wgmma_tma: PERSIST's staged stores and STAGES slices exceed the device's local memory"
#endif
/* In PERSIST's loop over problems the compiler would hoist every chunk's local and global
 * offsets (they depend only on tid) out of the loop and keep them all in registers (236
 * instead of 95 for bf16 128 x 128 tiles): an opaque copy of the work-item's index, remade
 * each problem, keeps them where they are used. */
#if PERSIST && !CLGEMM_EMULATE_TMA
#define STORE_OPAQUE(x) asm volatile("" : "+r"(x))
#else
#define STORE_OPAQUE(x) ((void)0)
#endif
/* The work-item's place in its warpgroup's stores, sl_, and the rows sr_ and sr_ + 8 and
 * columns sc_, sc_ + 1 of each 8 that wgmma left it (declared where the stores begin). */
#define STORE_LANE()                                                                         \
    int sl_ = tid % WGMMA_THREADS;                                                           \
    STORE_OPAQUE(sl_);                                                                       \
    const int sr_ = (sl_ / 32) * 16 + ((sl_ % 32) >> 2), sc_ = 2 * (sl_ & 3)
/* Only the ring's own stores wait for every consumer's wgmmas. */
#if PERSIST
#define STORE_SYNC_RING() ((void)0)
#else
#define STORE_SYNC_RING() STORE_SYNC_ALL()
#endif

/* A warpgroup's barrier (ids 2 and 3; 1 joins all consumers), and all consumers'.  The
 * emulation's producer work-items stay to the end and meet every barrier of the group. */
#if CLGEMM_EMULATE_TMA
#define STORE_SYNC_WG() barrier(CLK_LOCAL_MEM_FENCE)
#define STORE_SYNC_ALL() barrier(CLK_LOCAL_MEM_FENCE)
#else
/* Immediate ids: with one in a register, ptxas counts all 16 barriers as used. */
#define STORE_SYNC_WG()                                                                      \
    do {                                                                                     \
        if (wg == 0)                                                                         \
            asm volatile("bar.sync 2, 128;" ::: "memory");                                   \
        else                                                                                 \
            asm volatile("bar.sync 3, 128;" ::: "memory");                                   \
    } while (0)
#define STORE_SYNC_ALL() asm volatile("bar.sync 1, %0;" ::"r"(CONSUMERS * WGMMA_THREADS) : "memory")
#endif

/* Pair e of a chunk (e < 32 * STORE_CW): its row and column in the chunk, along C's rows
 * in memory. */
#if GEMM_TRANS_C
#define STORE_PAIR_R(e) (2 * ((e) % 32))
#define STORE_PAIR_C(e) ((e) / 32)
#define STORE_PAIR_GET(s, r, c) ((float2)((s)[(c) * STORE_LD + (r)], (s)[(c) * STORE_LD + (r) + 1]))
#else
#define STORE_PAIR_R(e) ((e) / (STORE_CW / 2))
#define STORE_PAIR_C(e) (2 * ((e) % (STORE_CW / 2)))
#define STORE_PAIR_GET(s, r, c) (*(__local const float2 *)((s) + (r) * STORE_LD + (c)))
#endif

/* A bias cost the staged stores two loads per pair, where the direct stores got it almost free
 * (bf16 4096^3 with an fp32 C: +2.8% against +0.1% for a ReLU, probe142 in bench/results/
 * 2026-11-26_nvidia-h100/probes/).  Where the bias runs along C's rows in memory (one value
 * per column of a row-major C, per row of a transposed one), every pair a work-item stores in
 * a chunk meets the same two values: its pairs lie WGMMA_THREADS apart, a multiple of a line's
 * pairs.  Then the work-item reads them once per chunk; the values and bits are those of
 * gemm_store2_along.  And it reads every chunk's pair at once, where the stores begin: read at
 * each chunk, the load's trip to memory stood between the chunk's barrier and its stores, once
 * per chunk and tile (probe150). */
#define STORE_BIAS_ONCE (GEMM_HAS_BIAS && GEMM_BIAS_ROWS == GEMM_TRANS_C)

/* The bias at k and k + 1 of the tile, each read only where it exists (below `left`). */
inline float2 tma_store_bias2(__global const gemm_c_t *bias, const int k, const int left,
                              const bool guarded)
{
    return (float2)(!guarded || k < left ? gemm_c_get(bias + k) : 0.0f,
                    !guarded || k + 1 < left ? gemm_c_get(bias + k + 1) : 0.0f);
}

/* gemm_store2_along's stores, with the pair's bias values b given. */
inline void tma_store2_biased(__global gemm_c_t *C, const int ldc, const int r, const int c,
                              const float x, const float y, const float2 b, const float alpha,
                              const float beta, const int rows_left, const int cols_left,
                              const bool guarded)
{
#if GEMM_TRANS_C
    __global gemm_c_t *p = C + c * ldc + r;
    const bool in0 = c < cols_left && r < rows_left, in1 = c < cols_left && r + 1 < rows_left;
#else
    __global gemm_c_t *p = C + r * ldc + c;
    const bool in0 = r < rows_left && c < cols_left, in1 = r < rows_left && c + 1 < cols_left;
#endif
    if (!guarded) {
        gemm_c_put2(p, (float2)(gemm_finish1(x, alpha, beta, p, b.x),
                                gemm_finish1(y, alpha, beta, p + 1, b.y)));
    } else {
        if (in0)
            gemm_c_put(p, gemm_finish1(x, alpha, beta, p, b.x));
        if (in1)
            gemm_c_put(p + 1, gemm_finish1(y, alpha, beta, p + 1, b.y));
    }
}

/* Row and column in the tile of a chunk's pair e (the chunk j, q of the loops below). */
#define STORE_ROW(e) (wg * 64 + STORE_PAIR_R(e))
#define STORE_COL(e) (j * WGN + q * STORE_CW + STORE_PAIR_C(e))
#if STORE_BIAS_ONCE
/* Every chunk's two values, guarded by the tile's real edge (a full tile passes every test). */
#define STORE_BIAS_PREFETCH()                                                                \
    float2 bq_[WG_NI][WGN / STORE_CW];                                                       \
    _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                        \
    _Pragma("unroll") for (int q = 0; q < WGN / STORE_CW; ++q)                               \
        bq_[j][q] = tma_store_bias2(bias, GEMM_BIAS_ROWS ? STORE_ROW(sl_) : STORE_COL(sl_),   \
                                    GEMM_BIAS_ROWS ? rows_left : cols_left, true)
#define STORE_PAIR_OUT(r, c, v, rows, cols, guarded)                                         \
    tma_store2_biased(C, ldc, r, c, (v).x, (v).y, bq_[j][q], alpha, beta, rows, cols, guarded)
#else
#define STORE_BIAS_PREFETCH() ((void)0)
#define STORE_PAIR_OUT(r, c, v, rows, cols, guarded)                                         \
    gemm_store2_along(C, ldc, bias, r, c, (v).x, (v).y, alpha, beta, rows, cols, guarded)
#endif

/* The stores of a staged chunk's pairs v_ (the tests outside, as in TMA_STORE_DIRECT). */
#define TMA_STORE_CHUNK(rows, cols, guarded)                                                 \
    do {                                                                                     \
        _Pragma("unroll") for (int it = 0; it < STORE_CW / 4; ++it) {                        \
            const int e_ = sl_ + it * WGMMA_THREADS;                                         \
            STORE_PAIR_OUT(STORE_ROW(e_), STORE_COL(e_), v_[it], rows, cols, guarded);       \
        }                                                                                    \
    } while (0)
#define TMA_STORE_CHUNK_FULL() TMA_STORE_CHUNK(BM, BN, false)

/* The beta cases sit inside each chunk, between its barriers: PoCL, which runs the emulation,
 * computed wrong sums with the barriers inside GEMM_FOR_BETA's two copies (tf32x3, a batch of
 * 3, beta 0: tests/test_layouts), though every work-item takes the same copy. */
#define TMA_STORE_STAGED()                                                                   \
    do {                                                                                     \
        __local float *stage_ = (__local float *)(wgmma_arena_w_ + STORE_AT +                \
                                                  (wg < CONSUMERS ? wg : 0) * STORE_REGION);  \
        STORE_LANE();                                                                        \
        STORE_BIAS_PREFETCH();                                                               \
        STORE_SYNC_RING(); /* every wgmma has read the ring */                               \
        _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                    \
        _Pragma("unroll") for (int q = 0; q < WGN / STORE_CW; ++q) {                         \
            if (STORE_MINE) {                                                                \
                _Pragma("unroll") for (int c8 = 0; c8 < STORE_CW / 8; ++c8) {                \
                    const float *d_ = &TMA_RESULT[j][4 * (q * (STORE_CW / 8) + c8)];         \
                    STAGE_PUT(stage_, sr_, c8 * 8 + sc_, d_[0], d_[1]);                      \
                    STAGE_PUT(stage_, sr_ + 8, c8 * 8 + sc_, d_[2], d_[3]);                  \
                }                                                                            \
            }                                                                                \
            STORE_SYNC_WG();                                                                 \
            /* all loads first: each store's epilogue may branch */                          \
            if (STORE_MINE) {                                                                \
                float2 v_[STORE_CW / 4];                                                     \
                _Pragma("unroll") for (int it = 0; it < STORE_CW / 4; ++it) {                \
                    const int e_ = sl_ + it * WGMMA_THREADS;                                 \
                    v_[it] = STORE_PAIR_GET(stage_, STORE_PAIR_R(e_), STORE_PAIR_C(e_));     \
                }                                                                            \
                if (!edge)                                                                   \
                    GEMM_FOR_BETA(TMA_STORE_CHUNK_FULL());                                   \
                else                                                                         \
                    TMA_STORE_CHUNK(rows_left, cols_left, true);                             \
            }                                                                                \
            STORE_SYNC_WG(); /* the chunk is stored before the next overwrites it */         \
        }                                                                                    \
    } while (0)

/* STAGED = 0: each work-item stores its own accumulators, pairs of neighbours straight from
 * the registers (GELU's: every value's arithmetic interleaves with the others').  The tests
 * of the edge and of beta sit outside the loops, so that a full tile's stores are one run
 * (GEMM_FOR_BETA); an edge tile's keep their per-element tests (three copies, not four:
 * with four, clang's unroller gave up on the staged chunks above and put the accumulators
 * on the stack). */
#define TMA_STORE_DIRECT_RUN(rows, cols, guarded)                                            \
    do {                                                                                     \
        const int warp_ = (tid / 32) % 4, g_ = (tid % 32) >> 2, t_ = tid & 3;               \
        const int r_ = wg * 64 + warp_ * 16 + g_;                                            \
        _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                    \
        _Pragma("unroll") for (int c8 = 0; c8 < WGN / 8; ++c8) {                             \
            const int c_ = j * WGN + c8 * 8 + 2 * t_;                                        \
            const float *d_ = &TMA_RESULT[j][4 * c8];                                        \
            gemm_store2(C, ldc, bias, r_, c_, d_[0], d_[1], alpha, beta, rows, cols, guarded);  \
            gemm_store2(C, ldc, bias, r_ + 8, c_, d_[2], d_[3], alpha, beta, rows, cols,     \
                        guarded);                                                            \
        }                                                                                    \
    } while (0)
#define TMA_STORE_DIRECT_FULL() TMA_STORE_DIRECT_RUN(BM, BN, false)
#define TMA_STORE_DIRECT()                                                                   \
    do {                                                                                     \
        if (!edge)                                                                           \
            GEMM_FOR_BETA(TMA_STORE_DIRECT_FULL());                                          \
        else                                                                                 \
            TMA_STORE_DIRECT_RUN(rows_left, cols_left, true);                                \
    } while (0)

#endif
