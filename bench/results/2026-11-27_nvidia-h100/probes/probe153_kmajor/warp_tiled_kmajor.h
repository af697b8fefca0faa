/* Step 7's K-major inner loop (KMAJOR=1), for A stored M x K and B stored N x K (an N T call:
 * attention's Q K^T, every Linear's X W^T), where both slices arrive k-contiguous.
 *
 * The plain loop wants both tiles k-major in local memory (As[k][m], Bs[k][n]), so each float4
 * of such a slice is written as four scalar stores, and an N T call pays that twice.  Here the
 * tiles keep the operands' own layout, rows of BK values (As[m][k], Bs[n][k]): a fetched
 * float4 is one 16-byte store.  The arithmetic reads four k at once instead: a float4 of A's
 * row m and one of B's row n give four products of the same C element, added in k order, so
 * every sum is the plain loop's, bit for bit.  Per four k a work-item reads TM float4s of A
 * and TN of B, as many loads per FMA as the plain loop's (TM/4 + TN/4 per k); it holds TN
 * float4s of B at once, the register price of the layout.
 *
 * Bank conflicts.  A warp's A reads at one (i, kq) take rows 4 lm + const: with rows of
 * BK/4 + 1 float4s they would fall on two of the eight 16-byte bank groups.  Each row's
 * float4s are therefore permuted, kq' = kq ^ sw(r), sw(r) = (r >> 3) mod (BK/4), the same
 * function of r wherever a row is written or read, so the layout stays a permutation and
 * only the banks move. */
#ifndef CLGEMM_WARP_TILED_KMAJOR_H
#define CLGEMM_WARP_TILED_KMAJOR_H

#if (BK / 4) & (BK / 4 - 1)
#error "gemm_warp_tiled: KMAJOR=1 needs BK / 4 a power of 2"
#endif

#define WT_KM_ROW (BK / 4 + 1) /* float4s per row of a tile: BK values and one of padding */
#if 2 * (BM + BN) * WT_KM_ROW * 16 > 49152
#error "gemm_warp_tiled: two K-major slices of A and B exceed 48 KiB of local memory"
#endif
#define WT_KM_SW(r) (((r) >> 3) & (WT_KQ - 1))

/* Float4 kq of row r. */
#define WT_KM_AT(r, kq) ((r) * WT_KM_ROW + ((kq) ^ WT_KM_SW(r)))

/* The fetched slice into one stage, each float4 where it belongs in its row. */
inline void wt_km_stash(__local float4 *As, __local float4 *Bs, const float4 *ra,
                        const float4 *rb, const int tid)
{
#pragma unroll
    for (int i = 0; i < WT_A_LOADS; ++i) {
        int r, kq;
        wt_kc_coords(tid, i, &r, &kq);
        As[WT_KM_AT(r, kq)] = ra[i];
    }
#pragma unroll
    for (int i = 0; i < WT_B_LOADS; ++i) {
        int r, kq;
        wt_kc_coords(tid, i, &r, &kq);
        Bs[WT_KM_AT(r, kq)] = rb[i];
    }
}

/* c = the dot product of four k, added to c one k after the other. */
#define WT_KM_DOT(c, a, b) fma((a).w, (b).w, fma((a).z, (b).z, fma((a).y, (b).y, fma((a).x, (b).x, (c)))))

/* One stage's products.  Rows of this work-item: ra0 + (i/4) 4 WT_WTM + i%4; columns
 * cb0 + j 4 WT_WTN + q.  A row's swizzle is the same for its four rows i%4 (4 lm is a
 * multiple of 4 and i%4 < 4 leave r >> 3 alone), so it is computed once per 4-row block. */
#define WT_KM_SLICE(as, bs)                                                                  \
    do {                                                                                     \
        _Pragma("unroll") for (int kq = 0; kq < WT_KQ; ++kq) {                               \
            float4 b_[WT_WNITER][4];                                                         \
            _Pragma("unroll") for (int j = 0; j < WT_WNITER; ++j) {                          \
                const int c_ = cb0 + j * 4 * WT_WTN;                                         \
                const int x_ = kq ^ WT_KM_SW(c_);                                            \
                _Pragma("unroll") for (int q = 0; q < 4; ++q)                                \
                    b_[j][q] = (bs)[(c_ + q) * WT_KM_ROW + x_];                              \
            }                                                                                \
            _Pragma("unroll") for (int i = 0; i < TM; ++i) {                                 \
                const int r_ = ra0 + (i / 4) * 4 * WT_WTM + i % 4;                           \
                const float4 a_ = (as)[r_ * WT_KM_ROW + (kq ^ WT_KM_SW(r_ - i % 4))];        \
                _Pragma("unroll") for (int j = 0; j < WT_WNITER; ++j) {                      \
                    acc[i][j].x = WT_KM_DOT(acc[i][j].x, a_, b_[j][0]);                      \
                    acc[i][j].y = WT_KM_DOT(acc[i][j].y, a_, b_[j][1]);                      \
                    acc[i][j].z = WT_KM_DOT(acc[i][j].z, a_, b_[j][2]);                      \
                    acc[i][j].w = WT_KM_DOT(acc[i][j].w, a_, b_[j][3]);                      \
                }                                                                            \
            }                                                                                \
        }                                                                                    \
    } while (0)

#endif
