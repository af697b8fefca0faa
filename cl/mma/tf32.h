/* TF32 as the tensor cores see it: an fp32 value whose low 13 mantissa bits are zero
 * (sign, 8 exponent bits, 10 mantissa bits).  Two ways to get there from fp32, and the
 * rounding error each costs relative to the value:
 *   tf32_round     to nearest (PTX cvt.rna.tf32.f32): at most 2^-11
 *   tf32_truncate  drop the low bits, as wgmma does to an fp32 operand it reads from
 *                  local memory without conversion: at most 2^-10 (just under)
 * The error bounds of host/cli/check.c follow from these two numbers. */
#ifndef CLGEMM_TF32_H
#define CLGEMM_TF32_H

/* fp32 -> tf32 (10 mantissa bits), round to nearest with ties away from zero,
 * like PTX cvt.rna.tf32.f32; the result is an fp32 value whose low 13 bits are
 * zero.  Infinities and NaN pass unchanged; a finite value may round up to
 * infinity, as in the hardware.  Done in integer arithmetic so that every
 * device, emulated or not, rounds identically. */
inline float tf32_round(const float x)
{
    const uint u = as_uint(x);
    const uint finite = (u & 0x7f800000u) != 0x7f800000u;
    return finite ? as_float((u + 0x1000u) & 0xffffe000u) : x;
}

inline float4 tf32_round4(const float4 v)
{
    return (float4)(tf32_round(v.x), tf32_round(v.y), tf32_round(v.z), tf32_round(v.w));
}

/* count float4s of local memory rounded in place, shared by n work-items (this one: id). */
inline void tf32_round_local(__local float4 *p, const int count, const int id, const int n)
{
    for (int i = id; i < count; i += n)
        p[i] = tf32_round4(p[i]);
}

/* tf32x3's split in local memory: count float4s at p replaced by their tf32 values hi, and
 * the residuals tf32(x - hi) written lo float4s further on, shared by n work-items (this
 * one: id).  The pre-pass's arithmetic (mma/tf32_pack.h), so the same bits. */
inline float4 tf32_lo4(const float4 x, const float4 hi) { return tf32_round4(x - hi); }
inline void tf32_split_local(__local float4 *p, const int count, const int lo, const int id,
                             const int n)
{
    for (int i = id; i < count; i += n) {
        const float4 x = p[i], hi = tf32_round4(x);
        p[i] = hi;
        p[i + lo] = tf32_lo4(x, hi);
    }
}

inline float tf32_truncate(const float x)
{
    return as_float(as_uint(x) & 0xffffe000u);
}

#endif
