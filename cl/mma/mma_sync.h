/* One warp-wide tensor-core primitive, and a portable stand-in for it.
 *
 * MMA_M16N8K8_TF32(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1) is PTX's
 *     mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
 * with D = C in place: the 32 work-items of a warp together hold a 16x8 tile of
 * A, an 8x8 tile of B and a 16x8 tile of D, and after the macro
 *     D[i][j] += sum_k A[i][k] * B[k][j]          (fp32 accumulation)
 * Each lane holds its pieces of the tiles by the PTX fragment layout, where
 * lane = linear local id % 32, g = lane >> 2 and t = lane & 3:
 *     A (16x8):  a0 = A[g][t]    a1 = A[g+8][t]    a2 = A[g][t+4]    a3 = A[g+8][t+4]
 *     B (8x8):   b0 = B[t][g]    b1 = B[t+4][g]
 *     D (16x8):  d0 = D[g][2t]   d1 = D[g][2t+1]   d2 = D[g+8][2t]   d3 = D[g+8][2t+1]
 * All arguments are floats; A and B should already be tf32 values (see
 * tf32_round): the hardware ignores the low 13 mantissa bits of its inputs, and
 * the emulation does the same.
 *
 * The macro needs two names in scope, set up once per kernel by MMA_WARP_SETUP
 * (at kernel scope: it may declare __local memory):
 *     mma_lane   this work-item's lane
 *     mma_ws     (emulation only) this warp's __local scratch
 * It must be reached by every work-item of the work-group together (never
 * under lane- or warp-divergent control flow): the hardware instruction is
 * warp-synchronous, and the emulation contains barriers.
 *
 * CLGEMM_EMULATE_MMA=1 selects the emulation, portable OpenCL C 1.2 (no
 * subgroups, no inline assembly): each lane writes its fragments into the
 * warp's scratch as whole 16x8 and 8x8 tiles, a barrier, then each lane
 * computes its own four entries of D from the tiles in fp32, a barrier.  The
 * products of two tf32 values are exact in fp32, so the emulation differs from
 * the tensor core only in the rounding of the sums.  It is slow and exists so
 * that the index logic around the primitive can be tested on any OpenCL device
 * (CI runs it on PoCL).
 *
 * LDMATRIX_X4(r0, r1, r2, r3, base, off) and LDMATRIX_X2(r0, r1, base, off) are
 * PTX's ldmatrix.sync.aligned.m8n8.x4 (.x2).shared.b16: one warp-wide local
 * load of four (two) 8x8 matrices of 16-bit values, each row 16 contiguous
 * bytes at an address given by one lane: lane l gives row l % 8 of matrix
 * l / 8 (x2: lanes 0-15 only; the others' addresses are ignored but must still
 * be computed the same way).  Lane l receives the 32-bit word l % 4 of row
 * l / 4 of matrix j in register j.  For 32-bit data a matrix is 8 rows x 4
 * floats, and that is exactly the tf32 fragment layout above: with A
 * row-major, the matrices (rows 0-7, k 0-3), (rows 8-15, k 0-3), (rows 0-7,
 * k 4-7), (rows 8-15, k 4-7) give a0..a3; with B stored n-major (Bt[n][k]),
 * (n 0-7, k 0-3) and (n 0-7, k 4-7) give b0, b1 of one n-tile.  Here the row
 * address of a lane is base + off: base a __local float pointer, the same in
 * every lane of the warp, off this lane's offset in floats; base + off must be
 * 16-byte aligned.  r0.. are floats (the words' bits, unchanged).  Like the
 * mma, it must be reached by the whole work-group together.  Emulated, each
 * lane publishes off in the warp's scratch (the mma's, which it reuses: the
 * two never overlap, both end with a barrier), a barrier, each lane reads its
 * words from the published rows, a barrier; a row address that is not 16-byte
 * aligned (the hardware's requirement) reads as NaN, so tests notice.
 */
#ifndef CLGEMM_MMA_H
#define CLGEMM_MMA_H

#ifndef CLGEMM_EMULATE_MMA
#define CLGEMM_EMULATE_MMA 0
#endif

#define MMA_WARP 32
/* floats of emulation scratch per warp: a 16x8 tile of A and an 8x8 tile of B
 * (ldmatrix's 32 row offsets fit in it) */
#define MMA_SCRATCH_FLOATS (16 * 8 + 8 * 8)

#include "mma/tf32.h"

#if CLGEMM_EMULATE_MMA

#define MMA_WARP_SETUP(linear_id, warps_per_group)                                   \
    __local float mma_scratch_[(warps_per_group) * MMA_SCRATCH_FLOATS];              \
    const int mma_lane = (linear_id) % MMA_WARP;                                     \
    __local float *const mma_ws = mma_scratch_ + ((linear_id) / MMA_WARP) * MMA_SCRATCH_FLOATS

/* What the tensor core reads of an operand: its top 19 bits. */
inline float mma_tf32_bits(const float x)
{
    return as_float(as_uint(x) & 0xffffe000u);
}

/* One lane's part of the emulated m16n8k8; returns its new d0..d3. */
inline float4 mma_m16n8k8_tf32_emulated(__local float *ws, const int lane, const float4 d,
                                        const float a0, const float a1, const float a2,
                                        const float a3, const float b0, const float b1)
{
    __local float *const as = ws;             /* as[i * 8 + k] = A[i][k], 16 x 8 */
    __local float *const bs = ws + 16 * 8;    /* bs[k * 8 + j] = B[k][j], 8 x 8 */
    const int g = lane >> 2, t = lane & 3;
    as[g * 8 + t] = mma_tf32_bits(a0);
    as[(g + 8) * 8 + t] = mma_tf32_bits(a1);
    as[g * 8 + t + 4] = mma_tf32_bits(a2);
    as[(g + 8) * 8 + t + 4] = mma_tf32_bits(a3);
    bs[t * 8 + g] = mma_tf32_bits(b0);
    bs[(t + 4) * 8 + g] = mma_tf32_bits(b1);
    barrier(CLK_LOCAL_MEM_FENCE);
    float r0 = d.x, r1 = d.y, r2 = d.z, r3 = d.w;
    for (int k = 0; k < 8; ++k) {
        const float lo = as[g * 8 + k], hi = as[(g + 8) * 8 + k];
        const float p = bs[k * 8 + 2 * t], q = bs[k * 8 + 2 * t + 1];
        r0 += lo * p;   /* exact products: only the sums round */
        r1 += lo * q;
        r2 += hi * p;
        r3 += hi * q;
    }
    barrier(CLK_LOCAL_MEM_FENCE);   /* the scratch is reused by the next call */
    return (float4)(r0, r1, r2, r3);
}

/* One lane's part of an emulated ldmatrix of `count` (2 or 4) matrices. */
inline float4 mma_ldmatrix_emulated(__local float *ws, const int lane,
                                    __local const float *base, const int off, const int count)
{
    __local int *const rows = (__local int *)ws;   /* rows[l] = lane l's offset */
    rows[lane] = off;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int r = lane >> 2, w = lane & 3;
    float x[4];
    for (int j = 0; j < 4; ++j) {
        const int o = j < count ? rows[j * 8 + r] : 0;
        x[j] = ((size_t)(base + o) & 15) != 0 ? NAN : base[o + w];
    }
    barrier(CLK_LOCAL_MEM_FENCE);   /* the scratch is reused by the next call */
    return (float4)(x[0], x[1], x[2], x[3]);
}

#define LDMATRIX_X4(r0, r1, r2, r3, base, off)                                       \
    do {                                                                             \
        const float4 mma_l_ = mma_ldmatrix_emulated(mma_ws, mma_lane, (base), (off), 4); \
        (r0) = mma_l_.x; (r1) = mma_l_.y; (r2) = mma_l_.z; (r3) = mma_l_.w;          \
    } while (0)

#define LDMATRIX_X2(r0, r1, base, off)                                               \
    do {                                                                             \
        const float4 mma_l_ = mma_ldmatrix_emulated(mma_ws, mma_lane, (base), (off), 2); \
        (r0) = mma_l_.x; (r1) = mma_l_.y;                                            \
    } while (0)

#define MMA_M16N8K8_TF32(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                      \
    do {                                                                             \
        const float4 mma_r_ = mma_m16n8k8_tf32_emulated(                             \
            mma_ws, mma_lane, (float4)((d0), (d1), (d2), (d3)),                      \
            (a0), (a1), (a2), (a3), (b0), (b1));                                     \
        (d0) = mma_r_.x; (d1) = mma_r_.y; (d2) = mma_r_.z; (d3) = mma_r_.w;          \
    } while (0)

#else /* the tensor core itself: NVIDIA OpenCL, sm_80 or newer */

#define MMA_WARP_SETUP(linear_id, warps_per_group)                                   \
    const int mma_lane = (linear_id) % MMA_WARP

#define MMA_M16N8K8_TF32(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                      \
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "               \
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" \
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)                            \
                 : "r"(as_uint(a0)), "r"(as_uint(a1)), "r"(as_uint(a2)),             \
                   "r"(as_uint(a3)), "r"(as_uint(b0)), "r"(as_uint(b1)),             \
                   "f"(d0), "f"(d1), "f"(d2), "f"(d3))

/* The local-memory state-space address of a __local pointer is its value as an
 * integer (as in wgmma.h). */
#define LDMATRIX_X4(r0, r1, r2, r3, base, off)                                       \
    do {                                                                             \
        uint mma_l0_, mma_l1_, mma_l2_, mma_l3_;                                     \
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" \
                     : "=r"(mma_l0_), "=r"(mma_l1_), "=r"(mma_l2_), "=r"(mma_l3_)    \
                     : "r"((uint)(size_t)((base) + (off))) : "memory");              \
        (r0) = as_float(mma_l0_); (r1) = as_float(mma_l1_);                          \
        (r2) = as_float(mma_l2_); (r3) = as_float(mma_l3_);                          \
    } while (0)

#define LDMATRIX_X2(r0, r1, base, off)                                               \
    do {                                                                             \
        uint mma_l0_, mma_l1_;                                                       \
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"      \
                     : "=r"(mma_l0_), "=r"(mma_l1_)                                  \
                     : "r"((uint)(size_t)((base) + (off))) : "memory");              \
        (r0) = as_float(mma_l0_); (r1) = as_float(mma_l1_);                          \
    } while (0)

#endif

#endif
