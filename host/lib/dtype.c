#include "dtype.h"

#include <string.h>

static uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static float float_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

uint16_t f32_to_f16_bits(float x)
{
    const uint32_t u = bits_of(x);
    const uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    const uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) /* NaN: quiet bit set, top payload bits kept */
        return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    /* 65520 = 65504 + half an ulp is a tie that rounds to the even neighbour 65536, which
     * does not exist: it and everything above (infinity too) is infinity. */
    if (a >= 0x477ff000u)
        return (uint16_t)(sign | 0x7c00u);
    if (a >= 0x38800000u) { /* 2^-14 and up: normal in f16 */
        /* Round the 13 dropped mantissa bits to nearest even; a carry out of the mantissa
         * correctly bumps the exponent.  Then rebias 127 -> 15 (112 << 23). */
        const uint32_t r = a + 0x0fffu + ((a >> 13) & 1u);
        return (uint16_t)(sign | ((r - 0x38000000u) >> 13));
    }
    if (a <= 0x33000000u) /* at most 2^-25, half the smallest subnormal: ties to even 0 */
        return sign;
    /* Subnormal: the result is round(|x| * 2^24) ulps of 2^-24.  |x| = m * 2^(e - 150) with
     * the hidden bit in m, so that is m >> (126 - e), rounded to nearest even by hand.  A
     * round-up to 1024 ulps gives 0x400, the smallest normal, as it should. */
    const uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - e; /* 14 .. 24 here */
    uint32_t q = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (q & 1u)))
        q++;
    return (uint16_t)(sign | q);
}

uint16_t f32_to_bf16_bits(float x)
{
    const uint32_t u = bits_of(x);
    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: keep sign and top payload, set quiet bit */
        return (uint16_t)((u >> 16) | 0x0040u);
    /* bf16 is the top half of a float: round the low 16 bits to nearest even.  Subnormals,
     * and finite values that round up to infinity, come out right by the same carry. */
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float f16_bits_to_f32(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0) /* zero or subnormal: man * 2^-24, exact */
        return float_of(sign | bits_of((float)man * 0x1.0p-24f));
    if (exp == 31)
        return float_of(sign | 0x7f800000u | (man << 13));
    return float_of(sign | ((exp + 112u) << 23) | (man << 13));
}

float bf16_bits_to_f32(uint16_t h) { return float_of((uint32_t)h << 16); }
