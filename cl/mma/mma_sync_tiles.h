/* Step 8's traffic between global memory, local memory and C (cl/08_mma.cl includes it
 * after its parameters, and this file reads them: DTYPE, BM, BN, BK, SPLIT, LDMATRIX and
 * the TC_* sizes).  Per element type, 16-byte global loads of TC_VEC values as four 32-bit
 * words, the layout of those words in local memory, and the float2 stores of results.
 *
 * A goes to local memory as it comes, row-major (k pairs side by side with 16-bit data).
 * B goes row-major with fp32 data; transposed (n-major) with LDMATRIX; and with 16-bit data
 * as rows of k pairs, interleaved in registers from two loaded rows: the words the
 * fragments of mma/mma_sync.h want.
 */
#ifndef CLGEMM_MMA_SYNC_TILES_H
#define CLGEMM_MMA_SYNC_TILES_H

/* The helpers take private arrays by pointer: they must be inlined, or the arrays live in
 * memory (and a plain C99 `inline` may be left to an external definition that does not
 * exist). */
#define TC_INLINE __attribute__((always_inline)) inline

/* TC_VEC consecutive values at p (16-byte aligned) as four words; guarded, only the first
 * `valid` of them exist (valid may be <= 0) and the rest read as zero (+0 is all zero bits
 * in fp32, f16 and bf16 alike). */
#if DTYPE == 0
TC_INLINE float4 tc_load(__global const float *p, const int valid, const bool guarded)
{
    if (!guarded || valid >= 4)
        return *(__global const float4 *)p;
    return (float4)(valid > 0 ? p[0] : 0.0f, valid > 1 ? p[1] : 0.0f,
                    valid > 2 ? p[2] : 0.0f, 0.0f);
}
#else
/* Values i and i+1 of p as a pair (i in the low half). */
TC_INLINE uint tc_pair(__global const ushort *p, const int i, const int valid)
{
    const uint lo = i < valid ? (uint)p[i] : 0u;
    const uint hi = i + 1 < valid ? (uint)p[i + 1] : 0u;
    return lo | hi << 16;
}

TC_INLINE uint4 tc_load(__global const ushort *p, const int valid, const bool guarded)
{
    if (!guarded || valid >= 8)
        return *(__global const uint4 *)p;
    return (uint4)(tc_pair(p, 0, valid), tc_pair(p, 2, valid), tc_pair(p, 4, valid),
                   tc_pair(p, 6, valid));
}
#endif

/* Where group i of this work-item's share of the B slice comes from: rows *k .. *k +
 * TC_KPW - 1, columns *c .. *c + TC_VEC - 1 of the slice.  Row-major in local memory, a
 * warp takes 32 consecutive groups along the rows.  Transposed (LDMATRIX), a warp takes
 * TC_BKR rows x TC_BCQ float4s (with BK = 16: 16 rows x 32 bytes, whole sectors), k
 * fastest: its scalar transposing stores to Bt[c + q][k] then fall on banks
 * k + 16 * (float4 column) when TC_BS_LD is 4 mod 8, 32 different banks (2-way conflicts
 * when BK is not a multiple of 16). */
TC_INLINE void tc_b_coords(const int tid, const int i, int *k, int *c)
{
    const int e = tid + i * TC_THREADS;
#if LDMATRIX
    const int slab = e / 32, lane = e % 32;
    *k = (slab / (BN / 4 / TC_BCQ)) * TC_BKR + lane % TC_BKR;
    *c = ((slab % (BN / 4 / TC_BCQ)) * TC_BCQ + lane / TC_BKR) * 4;
#else
    *k = (e / (BN / TC_VEC)) * TC_KPW;
    *c = (e % (BN / TC_VEC)) * TC_VEC;
#endif
}

/* This work-item's share of one K slice into registers.  A and B point at the slice's
 * corner; rows_left, cols_left and k_left bound the guarded loads.  A: BK/TC_VEC loads
 * per row, consecutive work-items along a row. */
TC_INLINE void tc_fetch(tc_word4 *ra, tc_word4 *rb, __global const tc_in *A, const int lda,
                        __global const tc_in *B, const int ldb, const int rows_left,
                        const int cols_left, const int k_left, const int tid,
                        const bool guarded)
{
#pragma unroll
    for (int i = 0; i < TC_A_LOADS; ++i) {
        const int e = tid + i * TC_THREADS;
        const int r = e / (BK / TC_VEC), k = (e % (BK / TC_VEC)) * TC_VEC;
        ra[i] = tc_load(A + r * lda + k, r < rows_left ? k_left - k : 0, guarded);
    }
#pragma unroll
    for (int i = 0; i < TC_B_LOADS; ++i) {
        int k, c;
        tc_b_coords(tid, i, &k, &c);
#pragma unroll
        for (int h = 0; h < TC_KPW; ++h)
            rb[TC_KPW * i + h] = tc_load(B + (k + h) * ldb + c,
                                         k + h < k_left ? cols_left - c : 0, guarded);
    }
}

#if DTYPE == 0
TC_INLINE float4 tc_round4(const float4 v)
{
#if SPLIT
    return v;   /* split into hi and lo when the fragments are loaded */
#else
    return tf32_round4(v);
#endif
}
#else
#define tc_round4(v) (v)   /* 16-bit values reach the tensor core as they are */
/* Pairs across two rows: (x.lo, y.lo) and (x.hi, y.hi), first value low. */
TC_INLINE uint tc_lows(const uint x, const uint y) { return (x & 0xffffu) | (y << 16); }
TC_INLINE uint tc_highs(const uint x, const uint y) { return (x >> 16) | (y & 0xffff0000u); }
#endif

/* The fetched slice into one stage of local memory: A row-major (rows of k pairs with
 * 16-bit data); B row-major, or with 16-bit data word (p, n) = B(2p, n) and B(2p+1, n),
 * or with LDMATRIX transposed (Bt[n][k] at bs[n * TC_BS_LD + k]). */
TC_INLINE void tc_stash(__local tc_word *as, __local tc_word *bs, const tc_word4 *ra,
                        const tc_word4 *rb, const int tid)
{
#pragma unroll
    for (int i = 0; i < TC_A_LOADS; ++i) {
        const int e = tid + i * TC_THREADS;
        const int r = e / (BK / TC_VEC), k = (e % (BK / TC_VEC)) * TC_VEC;
        *(__local tc_word4 *)(as + r * TC_AS_LD + k / TC_KPW) = tc_round4(ra[i]);
    }
#pragma unroll
    for (int i = 0; i < TC_B_LOADS; ++i) {
        int k, c;
        tc_b_coords(tid, i, &k, &c);
#if LDMATRIX
        const float4 v = tc_round4(rb[i]);
        __local float *const d = bs + c * TC_BS_LD + k;
        d[0 * TC_BS_LD] = v.x;
        d[1 * TC_BS_LD] = v.y;
        d[2 * TC_BS_LD] = v.z;
        d[3 * TC_BS_LD] = v.w;
#elif DTYPE == 0
        *(__local float4 *)(bs + k * TC_BS_LD + c) = tc_round4(rb[i]);
#else
        const uint4 u = rb[2 * i], v = rb[2 * i + 1];   /* rows k and k+1, columns c.. c+7 */
        __local uint *q = bs + k / 2 * TC_BS_LD + c;
        *(__local uint4 *)q = (uint4)(tc_lows(u.x, v.x), tc_highs(u.x, v.x),
                                      tc_lows(u.y, v.y), tc_highs(u.y, v.y));
        *(__local uint4 *)(q + 4) = (uint4)(tc_lows(u.z, v.z), tc_highs(u.z, v.z),
                                            tc_lows(u.w, v.w), tc_highs(u.w, v.w));
#endif
    }
}

#endif
