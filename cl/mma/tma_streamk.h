/* Stream-K for step 10 (STREAMK = G > 0; the host launches G groups per compute unit, one row
 * of them).  Included by cl/10_wgmma_tma.cl after mma/tma_ksplit.h, whose partial products
 * and count it reuses.
 *
 * Why: a short, wide C has few blocks.  At 128 x 6144 x 4096 swapped onto 64-row blocks of
 * the weight there are 96 of them for 132 SMs: one round with 36 SMs idle, and a split of K
 * in S slices only trades that for S x 96 groups in uneven rounds, each group paying its own
 * ring's start and its partial product.  Stream-K cuts the work itself evenly: the units are
 * (block, K slice of BK), U = blocks x slices per block, numbered block by block, and group g
 * of G takes units [g U / G, (g + 1) U / G), a run that may end one block and begin the next.
 * Every SM then does the same share of the work, once through its ring.
 *
 * A group walks its run as pieces, each the part of one block that lies in it (tma_loops.h's
 * loop over problems walks pieces here: the ring carries on from one to the next).  A piece
 * that is a whole block stores C as any group does.  A block cut between groups is summed as
 * a split of K is (mma/tma_ksplit.h): each of its groups writes its partial product, counts
 * on the block's counter, and the last to count adds the products in group order and stores
 * C, so the bits are the same at every run.  A group writes at most two partial products,
 * one for the block its run begins in and one for the block it ends in, so they lie in two
 * slots per group (2 G blocks of BM x BN floats), not per block of C.  No group waits for
 * another.  G <= U (the host's), so that no group's run is empty. */
#ifndef CLGEMM_TMA_STREAMK_H
#define CLGEMM_TMA_STREAMK_H

#if STREAMK
/* The units, this group's run of them, and the piece being walked (sk_tile_, from slice
 * kfirst, sk_len_ units, of which slices hold values of K: none where K is 0, whose one unit
 * per block only stores beta C).  Declares the per-piece row0, col0, kfirst and slices. */
#define SK_SETUP()                                                                           \
    const int sk_tiles_n_ = (N + BN - 1) / BN;                                               \
    const int sk_per_ = K > 0 ? (K + BK - 1) / BK : 1;                                       \
    const long sk_units_ = (long)sk_tiles_n_ * ((M + BM - 1) / BM) * sk_per_;                \
    const long sk_groups_ = (long)get_num_groups(0), sk_g_ = (long)get_group_id(0);          \
    const long sk_begin_ = sk_units_ * sk_g_ / sk_groups_;                                   \
    const long sk_end_ = sk_units_ * (sk_g_ + 1) / sk_groups_;                               \
    long sk_u_ = sk_begin_;                                                                  \
    int sk_tile_ = 0, sk_len_ = 0, row0 = 0, col0 = 0, kfirst = 0, slices = 0;               \
    const int ring_slices = K > 0 ? (int)(sk_end_ - sk_begin_) : 0
/* The group whose run holds unit u (the last g with g U / G <= u). */
#define SK_OWNER(u) ((int)((((u) + 1) * sk_groups_ + sk_units_ - 1) / sk_units_ - 1))
/* Group g's slot for block t's partial product: its first (0) or its last (1). */
#define SK_SLOT(g, t)                                                                        \
    (2 * (g) + (sk_units_ * (long)(g) / sk_groups_ < (long)(t) * sk_per_ ? 1 : 0))

/* The piece at unit u; an expression, true, for the loop's condition. */
#define SK_PIECE(u)                                                                          \
    (sk_tile_ = (int)((u) / sk_per_), kfirst = (int)((u) - (long)sk_tile_ * sk_per_),        \
     sk_len_ = (int)min((long)(sk_per_ - kfirst), sk_end_ - (u)), slices = K > 0 ? sk_len_ : 0, \
     row0 = sk_tile_ / sk_tiles_n_ * BM, col0 = sk_tile_ % sk_tiles_n_ * BN, 1)
#define FOR_EACH_PIECE                                                                       \
    for (int prob = 0, run = 0, ring0 = 0; sk_u_ < sk_end_ && SK_PIECE(sk_u_);               \
         sk_u_ += sk_len_, ring0 += slices, ++run)
/* What depends on the piece's block: the edges and the bias. */
#define SK_BLOCK()                                                                           \
    (rows_left = M - row0, cols_left = N - col0,                                             \
     edge = rows_left < BM || cols_left < BN || ((offC | ldc) & 1), bias = bias0_,            \
     GEMM_BIAS_MOVE(row0, col0))

/* After a piece's wgmmas: a whole block goes on to its stores; a cut one writes its partial
 * product and counts, and only the block's last group goes on, with the sum of them all.
 * Statements in the loop over pieces (continue: the next piece).  The branches are the
 * group's as a whole, so every work-item meets the same barriers. */
#define TMA_STREAMK_FINISH()                                                                 \
    const long sk_t0_ = (long)sk_tile_ * sk_per_;                                            \
    const int sk_first_ = SK_OWNER(sk_t0_);                                                  \
    const int sk_parts_ = SK_OWNER(sk_t0_ + sk_per_ - 1) - sk_first_ + 1;                    \
    if (sk_parts_ > 1) {                                                                     \
        if (wg < CONSUMERS)                                                                  \
            _Pragma("unroll") for (int q = 0; q < KSPLIT_QUADS; ++q)                         \
                KSPLIT_PUT4(KSPLIT_AT_BLOCK(SK_SLOT(sk_g_, sk_tile_), q),                    \
                            (float4)(KSPLIT_ACC(q, 0), KSPLIT_ACC(q, 1), KSPLIT_ACC(q, 2),   \
                                     KSPLIT_ACC(q, 3)));                                     \
        KSPLIT_FENCE();                                                                      \
        KSPLIT_SYNC();                                                                       \
        if (tid == 0) {                                                                      \
            __global int *count_ = tile_counts + sk_tile_;                                   \
            ksplit_last_[0] = ksplit_arrive(count_) == sk_parts_ - 1;                        \
            if (ksplit_last_[0]) /* every group of the block has counted */                  \
                KSPLIT_RESET(count_);                                                        \
            KSPLIT_FENCE();                                                                  \
        }                                                                                    \
        KSPLIT_SYNC();                                                                       \
        if (!ksplit_last_[0])                                                                \
            continue;                                                                        \
        KSPLIT_FENCE();                                                                      \
        for (int p_ = 0; wg < CONSUMERS && p_ < sk_parts_; ++p_)                             \
            KSPLIT_ADD_BLOCK(SK_SLOT(sk_first_ + p_, sk_tile_), p_ == 0);                    \
    }
#endif

#endif
