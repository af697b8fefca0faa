/* ROUNDER = 2 for cl/10_wgmma_tma.cl (TF32, PACKB 2): the rounding warpgroup loads B's slices
 * from global memory itself and stores them rounded into the slots, in the layout the copy
 * engine would have written (mma/tma_round.h says why).  Included by mma/tma_round.h.
 *
 * B^T is N x K, K-major (the kernel's B, ldb values between rows), on 16 bytes with ldb a
 * multiple of 4: the host packs any other B first (host/lib/prepass_tf32.c), as it does for
 * the copy engine's map.  A slot's B box is b_box_rows rows of SWZA bytes (BK values),
 * swizzled at SWZA; the rounders take 16-byte pieces, RB_CHUNKS to a row, so that eight
 * neighbouring work-items read one 128-byte line of a row. */
#ifndef CLGEMM_TMA_ROUND_LOAD_H
#define CLGEMM_TMA_ROUND_LOAD_H

#define RB_CHUNKS (SWZA / 16)                               /* 16-byte pieces of a box row */
#define RB_STRIDE (ROUNDERS / RB_CHUNKS)                    /* rows between a rounder's pieces */
#define RB_EACH ((B_BOX_ROWS + RB_STRIDE - 1) / RB_STRIDE) /* pieces per rounder and slice */

/* Values k .. k + 3 of row n of B^T; zeros past the matrix, as the copy engine fills them.
 * Past K only scalar loads: the padding there may hold anything, or the buffer end. */
inline float4 rb_fetch(__global const float *b, const int ld, const int n, const int N,
                       const int k, const int K)
{
    if (n >= N || k >= K)
        return (float4)(0.0f);
    __global const float *const p = b + (size_t)n * (size_t)ld + (size_t)k;
    if (k + 4 <= K)
        return *(__global const float4 *)p;
    return (float4)(p[0], k + 1 < K ? p[1] : 0.0f, k + 2 < K ? p[2] : 0.0f, 0.0f);
}

/* Slice i's pieces of this rounder (row rb_r_ + j * RB_STRIDE, piece rb_c_) into v. */
#define RB_LOAD(v, i)                                                                        \
    _Pragma("unroll") for (int j_ = 0; j_ < RB_EACH; ++j_)                                   \
        (v)[j_] = rb_fetch(rb_src_, ldb, col0 + rb_r_ + j_ * RB_STRIDE, N,                   \
                           (kfirst + (i)) * BK + 4 * rb_c_, K)

/* v rounded into slot i % STAGES once the consumers released it, fenced for wgmma's proxy,
 * and announced on the slot's "rounded" mbarrier. */
#define RB_PUT(v, i)                                                                         \
    do {                                                                                     \
        const int s_ = (i) % STAGES;                                                         \
        if ((i) >= STAGES)                                                                   \
            TMA_WAIT(empty0 + 8u * (uint)s_, (uint)(((i) / STAGES - 1) & 1));                \
        _Pragma("unroll") for (int j_ = 0; j_ < RB_EACH; ++j_) {                             \
            const int r_ = rb_r_ + j_ * RB_STRIDE;                                           \
            if (r_ < b_box_rows)                                                             \
                *(__local float4 *)(wgmma_arena_w_ +                                         \
                                    wgmma_swz((uint)(s_ * STAGE_BYTES + A_BYTES + r_ * SWZA +  \
                                                     16 * rb_c_),                           \
                                              (uint)SWZA)) = tf32_round4((v)[j_]);          \
        }                                                                                    \
        WGMMA_PROXY_FENCE();                                                                 \
        TMA_ARRIVE(TMA_ROUNDED0 + 8u * (uint)s_);                                            \
    } while (0)

/* The rounders' whole life, two slices' registers: the loads of one are in flight while the
 * other is written. */
#define TMA_ROUNDER()                                                                        \
    do {                                                                                     \
        if (tid >= PRODUCER0 + PRODUCER_THREADS) {                                           \
            const int rb_id_ = tid - (PRODUCER0 + PRODUCER_THREADS);                         \
            const int rb_r_ = rb_id_ / RB_CHUNKS, rb_c_ = rb_id_ % RB_CHUNKS;                \
            __global const float *const rb_src_ = B0_ + offB + RB_PROBLEM_OFFSET;            \
            float4 v0_[RB_EACH], v1_[RB_EACH];                                               \
            RB_LOAD(v0_, 0);                                                                 \
            for (int i = 0; i < slices; i += 2) {                                            \
                if (i + 1 < slices)                                                          \
                    RB_LOAD(v1_, i + 1);                                                     \
                RB_PUT(v0_, i);                                                              \
                if (i + 1 < slices) {                                                        \
                    if (i + 2 < slices)                                                      \
                        RB_LOAD(v0_, i + 2);                                                 \
                    RB_PUT(v1_, i + 1);                                                      \
                }                                                                            \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
    } while (0)
#if GEMM_BATCHED /* problem z's B (no PERSIST with a rounder: one problem per group) */
#define RB_PROBLEM_OFFSET ((size_t)get_group_id(2) * (size_t)strideB)
#else
#define RB_PROBLEM_OFFSET 0
#endif

/* A consumer: slot s's A copied and its B written (phase parity) */
#define TMA_WAIT_ROUNDED(s, parity)                                                          \
    do {                                                                                     \
        TMA_WAIT(full0 + 8u * (s), parity);                                                  \
        TMA_WAIT(TMA_ROUNDED0 + 8u * (s), parity);                                           \
    } while (0)

#endif
