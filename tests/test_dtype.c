/* Unit tests of the 16-bit formats: every f16 and bf16 pattern decoded against the format's
 * definition and round-tripped bit for bit, and floats rounded to nearest even. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "registry.h"
#include "expect.h"

static float from_bits(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* The conversion `to` rounds x to nearest, ties to even: no neighbour of the result is
 * closer, and on a tie the result's last bit is 0.  Neighbours are the adjacent bit patterns
 * of the same sign (the encodings are monotonic in magnitude). */
static bool rounds_to_nearest_even(float x, uint16_t (*to)(float), float (*back)(uint16_t),
                                   uint16_t inf)
{
    uint16_t h = to(x), mag = h & 0x7fffu, sign = h & 0x8000u;
    double v = back(h), d = fabs((double)x - v);
    if (mag > inf)
        return false; /* NaN from a finite input */
    if (mag == inf) { /* infinity: x must be at least halfway past the largest finite value */
        double top = back((uint16_t)(inf - 1)), next = 2.0 * top - back((uint16_t)(inf - 2));
        return isinf(x) || fabs((double)x) >= (top + next) / 2.0;
    }
    for (int step = -1; step <= 1; step += 2) {
        if ((step < 0 && mag == 0) || (step > 0 && mag >= inf))
            continue;
        uint16_t n = (uint16_t)(sign | (mag + step));
        /* Beyond the largest finite value, infinity stands for the next value up. */
        double nv = (n & 0x7fffu) == inf ? copysign(2.0 * back((uint16_t)(n - 1)) -
                                                        back((uint16_t)(n - 2)), x)
                                         : back(n);
        double nd = fabs((double)x - nv);
        if (nd < d || (nd == d && (h & 1u)))
            return false;
    }
    return true;
}

static uint16_t to_f16(float x) { return f32_to_f16_bits(x); }
static uint16_t to_bf16(float x) { return f32_to_bf16_bits(x); }
static float back_f16(uint16_t h) { return f16_bits_to_f32(h); }
static float back_bf16(uint16_t h) { return bf16_bits_to_f32(h); }

static void test_dtype_conversions(void)
{
    /* Every 16-bit pattern: decoded against the format's definition, and round-tripped. */
    int bad_f16 = 0, bad_bf16 = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        uint32_t exp = (h >> 10) & 31u, man = h & 1023u;
        double want = exp == 0 ? man * 0x1.0p-24 : ldexp(1024.0 + man, (int)exp - 25);
        float got = f16_bits_to_f32((uint16_t)h);
        if (exp == 31) {
            bad_f16 += man == 0 ? !(isinf(got) && (signbit(got) != 0) == (h >> 15))
                                : !isnan(got) || !isnan(from_bits(0x7f800000u | man << 13));
            bad_f16 += man != 0 && !(((f32_to_f16_bits(got) & 0x7c00u) == 0x7c00u) &&
                                     (f32_to_f16_bits(got) & 0x3ffu));
        } else {
            bad_f16 += (double)got != (h & 0x8000u ? -want : want);
            bad_f16 += f32_to_f16_bits(got) != h;
        }
        float b = bf16_bits_to_f32((uint16_t)h);
        uint32_t bu;
        memcpy(&bu, &b, 4);
        bad_bf16 += bu != h << 16;
        bad_bf16 += isnan(b) ? !isnan(bf16_bits_to_f32(f32_to_bf16_bits(b)))
                             : f32_to_bf16_bits(b) != h;
    }
    EXPECT(bad_f16 == 0);
    EXPECT(bad_bf16 == 0);

    /* Fixed cases: ties, the subnormal and overflow edges, signs, NaN. */
    struct { float x; uint16_t f16, bf16; } cases[] = {
        { 1.0f, 0x3c00, 0x3f80 },
        { -0.0f, 0x8000, 0x8000 },
        { 1.0f + 0x1.0p-11f, 0x3c00, 0x3f80 },         /* f16 tie -> even */
        { 1.0f + 3 * 0x1.0p-11f, 0x3c02, 0x3f80 },     /* f16 tie -> even (up) */
        { 1.0f + 0x1.0p-8f, 0x3c04, 0x3f80 },          /* bf16 tie -> even */
        { 1.0f + 3 * 0x1.0p-8f, 0x3c0c, 0x3f82 },      /* bf16 tie -> even (up) */
        { 65504.0f, 0x7bff, 0x4780 },                  /* largest f16 */
        { 65519.0f, 0x7bff, 0x4780 },
        { 65520.0f, 0x7c00, 0x4780 },                  /* tie to the missing even: inf */
        { -1e10f, 0xfc00, 0xd015 },
        { 0x1.0p-14f, 0x0400, 0x3880 },                /* smallest normal f16 */
        { 0x1.0p-24f, 0x0001, 0x3380 },                /* smallest subnormal f16 */
        { 0x1.0p-25f, 0x0000, 0x3300 },                /* half of it: tie -> even 0 */
        { 0x1.000002p-25f, 0x0001, 0x3300 },           /* just above: 1 */
        { 3 * 0x1.0p-25f, 0x0002, 0x33c0 },            /* 1.5 ulps: tie -> even 2 */
        { 1023.5f * 0x1.0p-24f, 0x0400, 0x3880 },      /* tie between 0x3ff and 0x400 */
        { -1000.0f * 0x1.0p-24f, 0x83e8, 0xb87a },
        { from_bits(0x7f7fffffu), 0x7c00, 0x7f80 },    /* FLT_MAX: bf16 rounds up to inf */
        { from_bits(0x7f7f7fffu), 0x7c00, 0x7f7f },
        { from_bits(0x00008000u), 0x0000, 0x0000 },    /* float subnormal, bf16 tie -> 0 */
        { from_bits(0x00018000u), 0x0000, 0x0002 },    /* bf16 tie -> even 2 */
        { INFINITY, 0x7c00, 0x7f80 },
        { -INFINITY, 0xfc00, 0xff80 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint16_t h = f32_to_f16_bits(cases[i].x), b = f32_to_bf16_bits(cases[i].x);
        EXPECT(h == cases[i].f16);
        EXPECT(b == cases[i].bf16);
        if (h != cases[i].f16 || b != cases[i].bf16)
            fprintf(stderr, "  case %zu (%a): f16 %04x (want %04x), bf16 %04x (want %04x)\n", i,
                    (double)cases[i].x, h, cases[i].f16, b, cases[i].bf16);
    }
    uint16_t n16 = f32_to_f16_bits(NAN), nb = f32_to_bf16_bits(-NAN);
    EXPECT((n16 & 0x7c00u) == 0x7c00u && (n16 & 0x3ffu) != 0);
    EXPECT((nb & 0x7f80u) == 0x7f80u && (nb & 0x7fu) != 0 && (nb & 0x8000u));
    EXPECT(isnan(f16_bits_to_f32(f32_to_f16_bits(from_bits(0x7f800001u))))); /* signalling */

    /* Nearest-even on random floats across the whole exponent range. */
    uint64_t s = 12345;
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        float x = from_bits((uint32_t)(s >> 32));
        if (isnan(x))
            continue;
        bad += !rounds_to_nearest_even(x, to_f16, back_f16, 0x7c00);
        bad += !rounds_to_nearest_even(x, to_bf16, back_bf16, 0x7f80);
        /* and values near f16's range, where its subnormals and overflow live */
        float y = ldexpf(x - truncf(x), (int)(s % 48) - 30);
        bad += !rounds_to_nearest_even(y, to_f16, back_f16, 0x7c00);
    }
    EXPECT(bad == 0);
    if (bad)
        fprintf(stderr, "  %d random floats not rounded to nearest even\n", bad);
}

int main(void)
{
    test_dtype_conversions();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
