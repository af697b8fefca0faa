/* Step 10's loops around the slices (included by 10_wgmma_tma.cl after its tile macros):
 * PROMOTE's chains of wgmmas summed into fp32 (tf32x3), and the problems of a batch that one
 * work-group computes (PERSIST). */
#ifndef CLGEMM_TMA_LOOPS_H
#define CLGEMM_TMA_LOOPS_H

/* With PROMOTE: whether slice i ends a chain, and the chain's sum added to the fp32 sums. */
#define TMA_CHAIN_CLOSES(i) \
    (PROMOTE && ((i) % (PROMOTE + !PROMOTE) == PROMOTE - 1 || (i) == slices - 1))
#if PROMOTE
#define TMA_PROMOTE()                                                                        \
    do {                                                                                     \
        _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                    \
        _Pragma("unroll") for (int q = 0; q < WGN / 2; ++q) {                                \
            WGMMA_KEEP(acc[j][q]);                                                           \
            sums[j][q] += acc[j][q];                                                         \
            acc[j][q] = 0.0f;                                                                \
        }                                                                                    \
    } while (0)
#define TMA_RESULT sums
#else
#define TMA_PROMOTE() ((void)0)
#define TMA_RESULT acc
#endif

/* The work of a group: a tile of C, its corner (row0, col0), in problem prob of a batch.
 * Without PERSIST a group has one: the tile its place in the launch names (x, y, before GM's
 * remapping), problem z.  With PERSIST the works are numbered w = tile + tiles * problem, and
 * the group numbered g of a launch of Z groups (host/lib/enqueue.c chooses Z) runs works g,
 * g + Z, g + 2Z ... one after another.  A batch's launch is a multiple of the tiles deep, so
 * that a group keeps its tile and walks the problems z, z + Z / tiles ..; a launch of fewer
 * groups than tiles walks the tiles of one problem, so that one tile's stores overlap the
 * next tile's copies there too.  run counts the works: slice i of the run-th is the ring's
 * slice run * slices + i.  Never with a split of K (its groups are the slices). */
#if PERSIST && GEMM_KSPLIT
#error "gemm_wgmma_tma: PERSIST and a split of K are separate launches"
#endif
#define TILES_ACROSS ((N + BN - 1) / BN)
#define TILES_DOWN ((M + BM - 1) / BM)
#if PERSIST
#define FOR_EACH_WORK                                                                        \
    for (int w_ = (int)(get_group_id(0) +                                                   \
                        get_num_groups(0) * (get_group_id(1) +                              \
                                             get_num_groups(1) * get_group_id(2))),          \
             works_ = TILES_ACROSS * TILES_DOWN * batch, run = 0;                            \
         w_ < works_;                                                                        \
         w_ += (int)(get_num_groups(0) * get_num_groups(1) * get_num_groups(2)), ++run)
#define WORK_TILE (w_ % (TILES_ACROSS * TILES_DOWN))
#define WORK_PROBLEM (w_ / (TILES_ACROSS * TILES_DOWN))
#else
#define FOR_EACH_WORK for (int run = 0; run < 1; ++run)
#define WORK_TILE ((int)(get_group_id(1) * get_num_groups(0) + get_group_id(0)))
#define WORK_PROBLEM ((int)get_group_id(2))
#endif

/* The corner of tile `lin` (numbered along C's block rows) on a grid `across` blocks wide and
 * `down` deep.  GM > 1 walks bands of GM block rows column by column instead: groups start in
 * launch order, and the resident ones then share GM rows of A and a few columns of B. */
inline int2 tma_tile_corner(const int lin, const int across, const int down)
{
#if GM > 1
    const int band = lin / (GM * across), first = band * GM;
    const int band_rows = down - first < GM ? down - first : GM, in_band = lin - first * across;
    return (int2)((first + in_band % band_rows) * BM, (in_band / band_rows) * BN);
#else
    (void)down;
    return (int2)((lin / across) * BM, (lin % across) * BN);
#endif
}
/* Declares the work's prob, row0 and col0 at the top of FOR_EACH_WORK's body. */
#define WORK_BEGIN()                                                                         \
    const int prob = WORK_PROBLEM;                                                           \
    const int2 corner_ = tma_tile_corner(WORK_TILE, TILES_ACROSS, TILES_DOWN);               \
    const int row0 = corner_.x, col0 = corner_.y

#if GEMM_BATCHED /* C's problem; A's and B's for the emulated copies */
#define MOVE_TO_PROBLEM(p)                                                                   \
    (A = A0_ + (size_t)(p) * strideA, B = B0_ + (size_t)(p) * strideB,                       \
     C = C0_ + (size_t)(p) * strideC)
#else
#define MOVE_TO_PROBLEM(p) ((void)(p), A = A0_, B = B0_, C = C0_)
#endif

#endif
