/* The portable stand-in for wgmma and cp.async (CLGEMM_EMULATE_WGMMA=1), included by
 * mma/wgmma.h after its descriptor helpers; read the layouts and the D fragment there.
 *
 * Each wgmma reads A and B from local memory by decoding its descriptors exactly as the PTX
 * ISA describes them (addresses relative to the arena given to WGMMA_SETUP) and updates this
 * work-item's N/2 entries of D at once; fences, commits and waits are empty, which is one
 * legal schedule of the asynchronous instruction, and cp.async is a plain copy at issue time.
 * A descriptor with a base offset or reserved bits set reads NaN, so a wrong encoding cannot
 * pass a test.
 *
 * What the tensor core computes, and so what this computes:
 *   - a tf32 operand is an fp32 value in local memory that the tensor core reads truncated
 *     to tf32 (tf32_truncate: the low 13 bits dropped, no rounding on the way); a kernel that
 *     wants round-to-nearest rounds before the values land (step 10's pre-pass: tf32_round);
 *   - f16 and bf16 operands are read exactly;
 *   - every product of two such values is exact in fp32, so only the order of the fp32 sums
 *     differs from the hardware's. */
#ifndef CLGEMM_WGMMA_EMULATED_H
#define CLGEMM_WGMMA_EMULATED_H

#include "mma/tf32.h"

#define WGMMA_SETUP(arena, linear_id)                                                \
    const uint wgmma_base_ = 0u;                                                     \
    __local uchar *const wgmma_arena_w_ = (__local uchar *)(arena);                  \
    __local const uchar *const wgmma_arena_ = wgmma_arena_w_;                        \
    const int wgmma_id_ = (linear_id) % WGMMA_THREADS

/* The byte of element (r, k) of an operand (r < 64 or N) whose values are `size` bytes (4:
 * tf32, 2: f16 / bf16), as its descriptor places it; 0xffffffff where the descriptor sets a
 * base offset or reserved bits (not emulated).
 *   No swizzle: core matrices of 8 rows x 16 bytes (16 / size values), 128 contiguous bytes;
 *     SBO steps 8 rows of M/N, LBO one core matrix along K.
 *       K-major:  start + (r / 8) SBO + (k / P) LBO + (r % 8) 16 + (k % P) size,  P = 16/size
 *       MN-major (16-bit A or B with its transpose immediate): a core matrix's rows are 8 k,
 *       each 8 consecutive r:  start + (r / 8) SBO + (k / 8) LBO + (k % 8) 16 + (r % 8) 2
 *     (CUTLASS's canonical no-swizzle layouts: K-major ((8,m),(T,2k)):((1T,SBO),(1,LBO)),
 *     MN-major ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)) in units of T = 16 bytes.)
 *   Swizzled (W = 32, 64, 128 bytes per atom row, E = W / size values): the logical address
 *       K-major:  start + (r / 8) SBO + (r % 8) W + k size                     (LBO unused)
 *       MN-major: start + (r / E) LBO + (k / 8) SBO + (k % 8) W + (r % E) size
 *     moved by wgmma_swz (see wgmma_desc_swz). */
inline uint wgmma_emu_byte(const ulong desc, const int r, const int k, const int mn_major,
                           const uint size)
{
    const ulong fields = 0x3fffUL | (0x3fffUL << 16) | (0x3fffUL << 32) | (3UL << 62);
    if (desc & ~fields)
        return 0xffffffffu;
    const uint start = (uint)(desc & 0x3fff) << 4;
    const uint lbo = (uint)((desc >> 16) & 0x3fff) << 4;
    const uint sbo = (uint)((desc >> 32) & 0x3fff) << 4;
    const uint type = (uint)(desc >> 62);
    const uint ur = (uint)r, uk = (uint)k;
    if (type == 0u) {
        const uint p = 16u / size;
        const uint in_core = mn_major ? (uk & 7u) * 16u + (ur & 7u) * 2u
                                      : (ur & 7u) * 16u + (uk % p) * size;
        return start + (ur >> 3) * sbo + (mn_major ? uk >> 3 : uk / p) * lbo + in_core;
    }
    const uint w = type == 1u ? 128u : type == 2u ? 64u : 32u, e = w / size;
    const uint logical = mn_major
        ? start + (ur / e) * lbo + (uk >> 3) * sbo + (uk & 7u) * w + (ur % e) * size
        : start + (ur >> 3) * sbo + (ur & 7u) * w + uk * size;
    return wgmma_swz(logical, w);
}

/* 16-bit bit patterns -> float, exactly (as mma/mma_16bit.h's, repeated so that the wgmma
 * headers stand alone). */
inline float wgmma_emu_f16(const uint h)
{
    const uint sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0u)
        return as_float(sign | as_uint((float)man * 0x1.0p-24f));
    if (exp == 31u)
        return as_float(sign | 0x7f800000u | (man << 13));
    return as_float(sign | ((exp + 112u) << 23) | (man << 13));
}

/* Whether dtype (as below) is a 16-bit type: k16 wgmmas, 2-byte values. */
#define WGMMA_EMU_16BIT(dtype) ((dtype) == 1 || (dtype) == 2)

/* Element (r, k) as the tensor core reads it: dtype 0 tf32 (truncated), 1 f16, 2 bf16; 3 and
 * 4 are an fp32 value the kernel turned into tf32 registers (an A fragment, below): 3 rounded
 * to nearest, 4 the residual below that (tf32x3's lo half). */
inline float wgmma_emu_value(__local const uchar *arena, const ulong desc, const int r,
                             const int k, const int mn_major, const int dtype)
{
    const uint byte = wgmma_emu_byte(desc, r, k, mn_major, WGMMA_EMU_16BIT(dtype) ? 2u : 4u);
    if (byte == 0xffffffffu)
        return as_float(0x7fc00000u);
    if (dtype == 0)
        return tf32_truncate(*(__local const float *)(arena + byte));
    if (dtype == 3)
        return tf32_round(*(__local const float *)(arena + byte));
    if (dtype == 4) {
        const float x = *(__local const float *)(arena + byte);
        return tf32_round(x - tf32_round(x));
    }
    const uint h = *(__local const ushort *)(arena + byte);
    return dtype == 2 ? as_float(h << 16) : wgmma_emu_f16(h);
}

/* This work-item's part of one m64nNk8 (tf32, dtype 0) or m64nNk16 (f16 / bf16, dtype 1 / 2):
 * its N/2 entries of D, updated in place.  A is K-major, or M-major with trans_a = 1; B
 * K-major, or N-major with trans_b = 1 (the transposes: 16-bit only). */
inline void wgmma_emu_m64(float *d, const int n, const ulong desc_a, const ulong desc_b,
                          __local const uchar *arena, const int id, const int dtype,
                          const int trans_a, const int trans_b)
{
    const int w = id >> 5, g = (id & 31) >> 2, t = id & 3, kn = WGMMA_EMU_16BIT(dtype) ? 16 : 8;
    const int dtype_b = dtype >= 3 ? 0 : dtype;
    float a_lo[16], a_hi[16];   /* rows 16w + g and 16w + g + 8 of A */
    for (int k = 0; k < kn; ++k) {
        a_lo[k] = wgmma_emu_value(arena, desc_a, 16 * w + g, k, trans_a, dtype);
        a_hi[k] = wgmma_emu_value(arena, desc_a, 16 * w + g + 8, k, trans_a, dtype);
    }
    for (int c = 0; c < n / 8; ++c)
        for (int h = 0; h < 2; ++h) {
            const int col = 8 * c + 2 * t + h;
            float lo = d[4 * c + h], hi = d[4 * c + 2 + h];
            for (int k = 0; k < kn; ++k) {
                const float b = wgmma_emu_value(arena, desc_b, col, k, trans_b, dtype_b);
                lo += a_lo[k] * b;   /* exact products: only the sums round */
                hi += a_hi[k] * b;
            }
            d[4 * c + h] = lo;
            d[4 * c + 2 + h] = hi;
        }
}

#define WGMMA_M64K8_TF32(N, d, desc_a, desc_b)                                       \
    wgmma_emu_m64((d), (N), (desc_a), (desc_b), wgmma_arena_, wgmma_id_, 0, 0, 0)

/* A from registers (TF32): a[0..3] = A[16w + g][t], A[16w + g + 8][t], A[16w + g][t + 4],
 * A[16w + g + 8][t + 4] (PTX ISA, wgmma's register fragment of A for .tf32), values the
 * kernel rounded to tf32 (part 3), or with tf32x3 the residuals below those (part 4, the
 * lo half).  A work-item sees only its own four, so the emulation reads A where the kernel
 * loaded it (desc_a, M-major where a_mn), turns it into tf32 as the kernel must have, and
 * checks that its registers hold exactly that.  A fragment loaded from the wrong rows or
 * columns, not rounded, or the wrong half, turns this work-item's D into NaN, as the hardware
 * would compute it wrong. */
inline void wgmma_emu_m64_rs(float *d, const int n, const float *a, const ulong desc_a,
                             const ulong desc_b, __local const uchar *arena, const int id,
                             const int a_mn, const int part)
{
    const int w = id >> 5, g = (id & 31) >> 2, t = id & 3;
    bool held = true;
    for (int i = 0; i < 4; ++i) {
        const float want = wgmma_emu_value(arena, desc_a, 16 * w + g + 8 * (i & 1),
                                           t + 4 * (i >> 1), a_mn, part);
        held = held && as_uint(a[i]) == as_uint(want);
    }
    if (!held) {
        for (int i = 0; i < n / 2; ++i)
            d[i] = as_float(0x7fc00000u);
        return;
    }
    wgmma_emu_m64(d, n, desc_a, desc_b, arena, id, part, a_mn, 0);
}
#define WGMMA_M64K8_TF32_RS(N, d, a, desc_a, desc_b, a_mn)                            \
    wgmma_emu_m64_rs((d), (N), (a), (desc_a), (desc_b), wgmma_arena_, wgmma_id_, (a_mn), 3)
#define WGMMA_M64K8_TF32_RS_LO(N, d, a, desc_a, desc_b, a_mn)                         \
    wgmma_emu_m64_rs((d), (N), (a), (desc_a), (desc_b), wgmma_arena_, wgmma_id_, (a_mn), 4)
#define WGMMA_M64K16_AB(N, d, desc_a, desc_b, DTYPE, TRANS_A, TRANS_B)               \
    wgmma_emu_m64((d), (N), (desc_a), (desc_b), wgmma_arena_, wgmma_id_, (DTYPE), (TRANS_A), \
                  (TRANS_B))
#define WGMMA_M64K16(N, d, desc_a, desc_b, DTYPE, TRANS_B)                           \
    WGMMA_M64K16_AB(N, d, desc_a, desc_b, DTYPE, 0, TRANS_B)

/* cp.async: a plain copy at issue time, zero-filling what lies past `bytes`.  dst is a byte
 * address as for wgmma_desc (wgmma_base_ + an offset into the arena), arena is
 * wgmma_arena_w_ of WGMMA_SETUP (the hardware forms ignore it). */
inline void cpasync_emu(__local uchar *arena, const uint dst, __global const uchar *src,
                        const int size, const int bytes)
{
    __local uchar *const d = arena + dst;
    for (int i = 0; i < size; ++i)
        d[i] = i < bytes ? src[i] : (uchar)0;
}
#define CPASYNC_16(arena, dst, src) \
    cpasync_emu((arena), (dst), (__global const uchar *)(src), 16, 16)
#define CPASYNC_16Z(arena, dst, src, bytes) \
    cpasync_emu((arena), (dst), (__global const uchar *)(src), 16, (bytes))
#define CPASYNC_COMMIT() ((void)0)
#define CPASYNC_WAIT(n) ((void)0)
#define WGMMA_PROXY_FENCE() ((void)0)
#define WGMMA_FENCE() ((void)0)
#define WGMMA_COMMIT() ((void)0)
#define WGMMA_WAIT(n) ((void)0)
#define WGMMA_KEEP(x) ((void)0)

#endif
