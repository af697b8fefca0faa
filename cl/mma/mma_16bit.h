/* The 16-bit tensor-core primitive, and a portable stand-in for it.
 *
 * MMA_M16N8K16_F16(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1) is PTX's
 *     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
 * and MMA_M16N8K16_BF16(...) the same with .bf16 inputs, with D = C in place:
 * the 32 work-items of a warp together hold a 16x16 tile of A, a 16x8 tile of
 * B and a 16x8 tile of D, and after the macro
 *     D[i][j] += sum_k A[i][k] * B[k][j]          (fp32 accumulation)
 * d0..d3 are floats; a0..a3, b0, b1 are uints, each holding two 16-bit values
 * (f16 or bf16 bit patterns), the one with the lower index in the low 16 bits.
 * NVIDIA's OpenCL has no cl_khr_fp16, so 16-bit data travels as ushort/uint
 * and is never converted on the device: the tensor core reads the bits.
 * With lane = linear local id % 32, g = lane >> 2 and t = lane & 3 the PTX
 * fragment layout is
 *     A (16x16): a0 = A[g][2t, 2t+1]     a1 = A[g+8][2t, 2t+1]
 *                a2 = A[g][2t+8, 2t+9]   a3 = A[g+8][2t+8, 2t+9]
 *     B (16x8):  b0 = B[2t, 2t+1][g]     b1 = B[2t+8, 2t+9][g]
 *     D (16x8):  d0 = D[g][2t]   d1 = D[g][2t+1]   d2 = D[g+8][2t]   d3 = D[g+8][2t+1]
 * (A's pairs run along a row, B's down a column: both along k.)  D is laid out
 * as in m16n8k8 (mma.h).
 *
 * The macros need two names in scope, set up once per kernel by
 * MMA16_WARP_SETUP (at kernel scope: it may declare __local memory):
 *     mma16_lane   this work-item's lane
 *     mma16_ws     (emulation only) this warp's __local scratch
 * Like mma.h's primitive they must be reached by every work-item of the
 * work-group together: the instruction is warp-synchronous and the emulation
 * contains barriers.
 *
 * CLGEMM_EMULATE_MMA=1 selects the emulation, portable OpenCL C 1.2: each lane
 * stores its six registers into the warp's scratch (A as 16 rows of 8 k-pairs,
 * B as 8 columns of 8 k-pairs), a barrier, then each lane decodes the 16-bit
 * values it needs to float with integer operations (exact: every f16 and bf16
 * value is a float) and sums its four entries of D in fp32, a barrier.  A
 * product of two f16 values has at most 22 significant bits and one of two
 * bf16 values 16, so products are exact in fp32 (bf16 only inside fp32's
 * range: products below 2^-126 lose bits, as on any fp32 unit) and the
 * emulation differs from the tensor core only in how the sums round.
 */
#ifndef CLGEMM_MMA16_H
#define CLGEMM_MMA16_H

#ifndef CLGEMM_EMULATE_MMA
#define CLGEMM_EMULATE_MMA 0
#endif

#define MMA16_WARP 32
/* uints of emulation scratch per warp: A 16x16 and B 16x8 16-bit values, two per uint */
#define MMA16_SCRATCH_UINTS (16 * 8 + 8 * 8)

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

#define MMA16_WARP_SETUP(linear_id, warps_per_group)                                 \
    __local uint mma16_scratch_[(warps_per_group) * MMA16_SCRATCH_UINTS];            \
    const int mma16_lane = (linear_id) % MMA16_WARP;                                 \
    __local uint *const mma16_ws = mma16_scratch_ +                                  \
                                   ((linear_id) / MMA16_WARP) * MMA16_SCRATCH_UINTS

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

#define MMA16_EMULATED_(bf16, d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                \
    do {                                                                             \
        const float4 mma16_r_ = mma_m16n8k16_emulated(                               \
            mma16_ws, mma16_lane, (float4)((d0), (d1), (d2), (d3)),                  \
            (a0), (a1), (a2), (a3), (b0), (b1), (bf16));                             \
        (d0) = mma16_r_.x; (d1) = mma16_r_.y; (d2) = mma16_r_.z; (d3) = mma16_r_.w;  \
    } while (0)

#define MMA_M16N8K16_F16(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                      \
    MMA16_EMULATED_(0, d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)
#define MMA_M16N8K16_BF16(d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)                     \
    MMA16_EMULATED_(1, d0, d1, d2, d3, a0, a1, a2, a3, b0, b1)

#else /* the tensor core itself: NVIDIA OpenCL, sm_80 or newer */

#define MMA16_WARP_SETUP(linear_id, warps_per_group)                                 \
    const int mma16_lane = (linear_id) % MMA16_WARP

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

#endif

#endif
