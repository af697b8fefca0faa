/* The warp-wide tensor-core primitives of step 8 (PTX mma.sync and ldmatrix), and a portable
 * stand-in for each.
 *
 * With D = C in place, the 32 work-items of a warp together hold a 16xK tile of A, a Kx8
 * tile of B and a 16x8 tile of D, and after the macro
 *     D[i][j] += sum_k A[i][k] * B[k][j]          (fp32 accumulation)
 *   MMA_M16N8K8_TF32   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32    (K = 8)
 *   MMA_M16N8K16_F16   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32     (K = 16)
 *   MMA_M16N8K16_BF16  the same with .bf16 inputs
 * all called as (d0, d1, d2, d3, a0, a1, a2, a3, b0, b1).  Each lane holds its pieces of the
 * tiles by the PTX fragment layout, where lane = linear local id % 32, g = lane >> 2 and
 * t = lane & 3.  D is the same for both shapes:
 *     D (16x8):  d0 = D[g][2t]   d1 = D[g][2t+1]   d2 = D[g+8][2t]   d3 = D[g+8][2t+1]
 * TF32: every register is one float, and A and B should already be tf32 values (see
 * tf32_round): the hardware ignores the low 13 mantissa bits of its inputs, and the
 * emulation does the same.
 *     A (16x8):  a0 = A[g][t]    a1 = A[g+8][t]    a2 = A[g][t+4]    a3 = A[g+8][t+4]
 *     B (8x8):   b0 = B[t][g]    b1 = B[t+4][g]
 * 16-bit: every A and B register is a uint holding two values adjacent in k (f16 or bf16
 * bit patterns), the lower k in the low half.  NVIDIA's OpenCL has no cl_khr_fp16, so
 * 16-bit data travel as ushort/uint and are never converted on the device.
 *     A (16x16): a0 = A[g][2t, 2t+1]     a1 = A[g+8][2t, 2t+1]
 *                a2 = A[g][2t+8, 2t+9]   a3 = A[g+8][2t+8, 2t+9]
 *     B (16x8):  b0 = B[2t, 2t+1][g]     b1 = B[2t+8, 2t+9][g]
 * Seen as 32-bit words (one float, or one k pair) the two layouts are the same: word t and
 * t + 4 of rows g and g + 8 of A, words t and t + 4 of column g of B.  Step 8 relies on that.
 *
 * LDMATRIX_X4(r0, r1, r2, r3, base, off) and LDMATRIX_X2(r0, r1, base, off) are PTX's
 * ldmatrix.sync.aligned.m8n8.x4 (.x2).shared.b16: one warp-wide local load of four (two)
 * 8x8 matrices of 16-bit values, each row 16 contiguous bytes at an address given by one
 * lane: lane l gives row l % 8 of matrix l / 8 (x2: lanes 0-15 only; the others' addresses
 * are ignored but must still be computed the same way).  Lane l receives the 32-bit word
 * l % 4 of row l / 4 of matrix j in register j.  For 32-bit data a matrix is 8 rows x 4
 * floats, and that is exactly the tf32 fragment layout above: with A row-major, the
 * matrices (rows 0-7, k 0-3), (rows 8-15, k 0-3), (rows 0-7, k 4-7), (rows 8-15, k 4-7)
 * give a0..a3; with B stored n-major (Bt[n][k]), (n 0-7, k 0-3) and (n 0-7, k 4-7) give
 * b0, b1 of one n-tile.  The row address of a lane is base + off: base a __local float
 * pointer, the same in every lane of the warp, off this lane's offset in floats; base + off
 * must be 16-byte aligned.  r0.. are floats (the words' bits, unchanged).
 *
 * The macros need two names in scope, set up once per kernel by MMA_WARP_SETUP (at kernel
 * scope: it may declare __local memory):
 *     mma_lane   this work-item's lane
 *     mma_ws     (emulation only) this warp's __local scratch, MMA_SCRATCH_WORDS words
 * They must be reached by every work-item of the work-group together (never under lane- or
 * warp-divergent control flow): the hardware instructions are warp-synchronous, and the
 * emulation contains barriers.
 *
 * CLGEMM_EMULATE_MMA=1 selects the emulation, portable OpenCL C 1.2 (no subgroups, no inline
 * assembly): each lane writes its fragments into the warp's scratch as whole tiles, a
 * barrier, then each lane computes its own four entries of D from the tiles in fp32, a
 * barrier.  16-bit values are decoded to float with integer operations (exact: every f16
 * and bf16 value is a float).  Products of two tf32 values (at most 22 significant bits),
 * two f16 values (22) or two bf16 values (16) are exact in fp32 (bf16 only inside fp32's
 * range: products below 2^-126 lose bits, as on any fp32 unit), so the emulation differs
 * from the tensor core only in how the sums round.  The emulated ldmatrix publishes each
 * lane's offset in the same scratch (both end with a barrier, so they never overlap), and a
 * row address that is not 16-byte aligned (the hardware's requirement) reads as NaN, so
 * tests notice.  It is slow and exists so that the index logic around the primitives can be
 * tested on any OpenCL device (CI runs it on PoCL).
 */
#ifndef CLGEMM_MMA_SYNC_H
#define CLGEMM_MMA_SYNC_H

#ifndef CLGEMM_EMULATE_MMA
#define CLGEMM_EMULATE_MMA 0
#endif

#define MMA_WARP 32
/* 32-bit words of emulation scratch per warp: A's 16 rows and B's 8 columns of 8 words
 * each (ldmatrix's 32 row offsets fit in it) */
#define MMA_SCRATCH_WORDS (16 * 8 + 8 * 8)

#include "mma/tf32.h"

/* IEEE binary16 bits -> float, exactly (subnormals, infinities and NaN
 * included), in integer arithmetic: no cl_khr_fp16 needed. */
inline float f16_bits_to_float(const uint h)
{
    const uint sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0u)   /* zero or subnormal: man * 2^-24, exact in fp32 */
        return as_float(sign | as_uint((float)man * 0x1.0p-24f));
    if (exp == 31u)  /* infinity or NaN: keep the payload */
        return as_float(sign | 0x7f800000u | (man << 13));
    return as_float(sign | ((exp + 112u) << 23) | (man << 13));   /* rebias 15 -> 127 */
}

/* bfloat16 bits -> float: bf16 is the top half of a float. */
inline float bf16_bits_to_float(const uint h)
{
    return as_float((h & 0xffffu) << 16);
}

#if CLGEMM_EMULATE_MMA

#define MMA_WARP_SETUP(linear_id, warps_per_group)                                   \
    __local uint mma_scratch_[(warps_per_group) * MMA_SCRATCH_WORDS];                \
    const int mma_lane = (linear_id) % MMA_WARP;                                     \
    __local uint *const mma_ws = mma_scratch_ + ((linear_id) / MMA_WARP) * MMA_SCRATCH_WORDS

/* One lane's part of the emulated m16n8k8; returns its new d0..d3. */
inline float4 mma_m16n8k8_tf32_emulated(__local uint *ws, const int lane, const float4 d,
                                        const float a0, const float a1, const float a2,
                                        const float a3, const float b0, const float b1)
{
    __local float *const as = (__local float *)ws;   /* as[i * 8 + k] = A[i][k], 16 x 8 */
    __local float *const bs = as + 16 * 8;           /* bs[k * 8 + j] = B[k][j], 8 x 8 */
    const int g = lane >> 2, t = lane & 3;
    as[g * 8 + t] = tf32_truncate(a0);   /* what the tensor core reads: the top 19 bits */
    as[(g + 8) * 8 + t] = tf32_truncate(a1);
    as[g * 8 + t + 4] = tf32_truncate(a2);
    as[(g + 8) * 8 + t + 4] = tf32_truncate(a3);
    bs[t * 8 + g] = tf32_truncate(b0);
    bs[(t + 4) * 8 + g] = tf32_truncate(b1);
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

/* The value in the low (hi = 0) or high (hi = 1) half of a pair, as a float. */
inline float mma16_half(const uint pair, const int hi, const int bf16)
{
    const uint bits = hi ? pair >> 16 : pair & 0xffffu;
    return bf16 ? bf16_bits_to_float(bits) : f16_bits_to_float(bits);
}

/* One lane's part of the emulated m16n8k16; returns its new d0..d3. */
inline float4 mma_m16n8k16_emulated(__local uint *ws, const int lane, const float4 d,
                                    const uint a0, const uint a1, const uint a2, const uint a3,
                                    const uint b0, const uint b1, const int bf16)
{
    __local uint *const as = ws;            /* as[i * 8 + p] = A[i][2p, 2p+1] */
    __local uint *const bs = ws + 16 * 8;   /* bs[j * 8 + p] = B[2p, 2p+1][j] */
    const int g = lane >> 2, t = lane & 3;
    as[g * 8 + t] = a0;
    as[(g + 8) * 8 + t] = a1;
    as[g * 8 + t + 4] = a2;
    as[(g + 8) * 8 + t + 4] = a3;
    bs[g * 8 + t] = b0;
    bs[g * 8 + t + 4] = b1;
    barrier(CLK_LOCAL_MEM_FENCE);
    float r0 = d.x, r1 = d.y, r2 = d.z, r3 = d.w;
    for (int p = 0; p < 8; ++p)
        for (int h = 0; h < 2; ++h) {   /* k = 2p + h */
            const float lo = mma16_half(as[g * 8 + p], h, bf16);
            const float hi = mma16_half(as[(g + 8) * 8 + p], h, bf16);
            const float x = mma16_half(bs[(2 * t) * 8 + p], h, bf16);
            const float y = mma16_half(bs[(2 * t + 1) * 8 + p], h, bf16);
            r0 += lo * x;   /* exact products: only the sums round */
            r1 += lo * y;
            r2 += hi * x;
            r3 += hi * y;
        }
    barrier(CLK_LOCAL_MEM_FENCE);   /* the scratch is reused by the next call */
    return (float4)(r0, r1, r2, r3);
}

/* One lane's part of an emulated ldmatrix of `count` (2 or 4) matrices. */
inline float4 mma_ldmatrix_emulated(__local uint *ws, const int lane,
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

#define MMA16_EMULATED_(bf16, d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                \
    do {                                                                             \
        const float4 mma_r_ = mma_m16n8k16_emulated(                                 \
            mma_ws, mma_lane, (float4)((d0), (d1), (d2), (d3)),                      \
            (a0), (a1), (a2), (a3), (b0), (b1), (bf16));                             \
        (d0) = mma_r_.x; (d1) = mma_r_.y; (d2) = mma_r_.z; (d3) = mma_r_.w;          \
    } while (0)

#define MMA_M16N8K16_F16(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                      \
    MMA16_EMULATED_(0, d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)
#define MMA_M16N8K16_BF16(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                     \
    MMA16_EMULATED_(1, d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)

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

#define MMA16_ASM_(type, d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                      \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." type "." type ".f32 "      \
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" \
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)                            \
                 : "r"((uint)(a0)), "r"((uint)(a1)), "r"((uint)(a2)), "r"((uint)(a3)), \
                   "r"((uint)(b0)), "r"((uint)(b1)),                                 \
                   "f"(d0), "f"(d1), "f"(d2), "f"(d3))

#define MMA_M16N8K16_F16(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                      \
    MMA16_ASM_("f16", d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)
#define MMA_M16N8K16_BF16(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                     \
    MMA16_ASM_("bf16", d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)

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
