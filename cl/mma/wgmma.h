/* Hopper's warpgroup matrix multiply (wgmma), and a portable stand-in for it.
 *
 * WGMMA_M64K8_TF32(N, d, desc_a, desc_b) is PTX's
 *     wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32  d, desc_a, desc_b, 1, 1, 1
 * issued by the 128 work-items of one warpgroup together (four consecutive warps, the first
 * one's rank a multiple of four, as NVIDIA forms warps from the linear local id): with A a
 * 64 x 8 and B an 8 x N tile, both in local memory,
 *     D[i][j] += sum_k A[i][k] * B[k][j]              (fp32 accumulation, tf32 products)
 * where D is spread over the warpgroup's registers: `d` is a float array of N/2 entries per
 * work-item.  N is one of 8, 16, 32, 64, 128, 256 here (PTX has every multiple of 8).
 *
 * The D fragment (PTX ISA, "Register Fragments and Shared Memory Matrix Layouts",
 * wgmma .m64nNk8 accumulator figure): work-item x of the warpgroup is lane l = x % 32 of warp
 * w = x / 32, g = l / 4, t = l % 4, and for c = 0 .. N/8 - 1
 *     d[4c + 0] = D[16w + g    ][8c + 2t]      d[4c + 1] = D[16w + g    ][8c + 2t + 1]
 *     d[4c + 2] = D[16w + g + 8][8c + 2t]      d[4c + 3] = D[16w + g + 8][8c + 2t + 1]
 * that is, each warp owns 16 rows, laid out like mma.sync's m16n8 D fragment repeated every 8
 * columns.
 *
 * A and B come from local memory through 64-bit matrix descriptors (PTX ISA, "Matrix
 * Descriptor Format"), built by wgmma_desc():
 *     bits  0-13  start address >> 4 (of the local-memory state space, 16-byte aligned)
 *     bits 16-29  leading-dimension byte offset (LBO) >> 4
 *     bits 32-45  stride-dimension byte offset (SBO) >> 4
 *     bits 49-51  base offset (swizzle modes only; 0 here)
 *     bits 62-63  swizzle mode: 0 = none ("interleave"); 1 = 128B, 2 = 64B, 3 = 32B, used
 *                 only by the 16-bit form (wgmma_desc_swz, described there)
 * For tf32 both operands must be K-major (the transpose flags exist only for f16/bf16): A as
 * its rows, B as its columns, i.e. B^T row by row.  Without swizzling a K-major operand is made
 * of core matrices of 8 rows x 16 bytes (8 x 4 tf32), each 128 contiguous bytes, row after row.
 * One k8 step spans two core matrices along K, LBO bytes apart; the next 8 rows (of M for A,
 * of N for B) start SBO bytes further.  So element (r, k), r < 64 (or N), k < 8, lives at
 *     start + (r / 8) * SBO + (k / 4) * LBO + (r % 8) * 16 + (k % 4) * 4
 * (the "Shared Memory Matrix Layout" section; its no-swizzle K-major atom is 8 x 1 in units
 * of 16 bytes, and LBO is the stride between the two atoms of a k8 step).
 *
 * WGMMA_M64K16(N, d, desc_a, desc_b, BF16, TRANS_B) is the 16-bit form,
 *     wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16 (BF16 = 0) or .bf16.bf16 (BF16 = 1)
 *         d, desc_a, desc_b, 1, 1, 1, 0, TRANS_B
 * with A 64 x 16 and B 16 x N, 16-bit values in local memory, the same D fragment.  Its core
 * matrices are 8 x 16 bytes = 8 x 8 values.  A is K-major as above (k % 8 picks the value in
 * a row of 16 bytes, k / 8 the core matrix, LBO apart).  B is K-major likewise (TRANS_B = 0)
 * or N-major (TRANS_B = 1): then a core matrix's 8 rows of 16 bytes are 8 consecutive k, each
 * holding 8 consecutive n, so element (n, k) lives at
 *     start + (n / 8) * SBO + (k / 8) * LBO + (k % 8) * 16 + (n % 8) * 2
 * (CUTLASS's no-swizzle MN-major canonical layout ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)), T = 8
 * values: SBO steps along N and LBO along K, as for K-major).  Row-major B lands N-major with
 * plain 16-byte copies.  BF16 and TRANS_B must be literal 0 or 1.
 *
 * The ordering rules (PTX ISA, "wgmma.fence", "Async Proxy", "wgmma.commit_group",
 * "wgmma.wait_group"), which the macros below map one to one:
 *   WGMMA_PROXY_FENCE()  fence.proxy.async.shared::cta: wgmma reads local memory through the
 *                        async proxy, so each work-item's ordinary stores must be fenced
 *                        before the barrier after which the tensor cores read them.
 *   WGMMA_FENCE()        wgmma.fence: before the first wgmma, and whenever the accumulators
 *                        were touched by ordinary code since the last one.
 *   WGMMA_COMMIT()       wgmma.commit_group: the wgmma issued so far form one group.
 *   WGMMA_WAIT(n)        wgmma.wait_group n: until at most n groups are pending.  Neither
 *                        the accumulators nor the local memory a pending wgmma reads may be
 *                        touched before it completes.
 *   WGMMA_KEEP(x)        no instruction: tells the compiler that x changes here, so that no
 *                        read of an accumulator is moved above the WGMMA_WAIT before it.
 *
 * How it reaches the hardware from OpenCL: NVIDIA's compiler targets sm_90, where wgmma does
 * not exist, so every Hopper instruction is written as a PTX comment starting "// @sm90a "
 * (operands are substituted inside comments too).  The host (host/lib/program.c, with
 * -DCLGEMM_PTX_SM90A=1 from host/lib/backend.c) builds once, rewrites the PTX to sm_90a with
 * those comments turned into instructions (host/lib/ptx_retarget.h) and builds that text again.
 *
 * CLGEMM_EMULATE_WGMMA=1 selects the emulation, portable OpenCL C 1.2: WGMMA_M64K8_TF32 reads
 * A and B from local memory by decoding the descriptors exactly as above (addresses are
 * relative to the arena given to WGMMA_SETUP) and updates this work-item's N/2 entries of D
 * in the fragment layout above, at once; fences, commits and waits are empty, which is one
 * legal schedule of the asynchronous instruction.  A descriptor with a base offset or
 * reserved bits set yields NaN, so a wrong encoding cannot pass a test; swizzle modes are
 * decoded as wgmma_desc_swz describes them (tf32: K-major, 4-byte values).  The tf32
 * operands are cut to their top 19 bits as the hardware reads them; products are exact in
 * fp32, so only the order of the sums differs from the tensor core.
 *
 * Kernel-side contract: WGMMA_SETUP(arena, linear_id) once at kernel scope, with arena the
 * __local array (16-byte aligned) that holds every operand; addresses given to wgmma_desc are
 * wgmma_base_ + a byte offset into that arena.  Every WGMMA_* is reached by all work-items of
 * the work-group together (never under divergent control flow).
 */
#ifndef CLGEMM_WGMMA_H
#define CLGEMM_WGMMA_H

#ifndef CLGEMM_PTX_SM90A
#define CLGEMM_PTX_SM90A 0
#endif
#ifndef CLGEMM_EMULATE_WGMMA
#define CLGEMM_EMULATE_WGMMA 0
#endif
#if CLGEMM_PTX_SM90A == CLGEMM_EMULATE_WGMMA
#error "wgmma.h: build with -DCLGEMM_PTX_SM90A=1 (NVIDIA sm_90 through the host's post-pass) or -DCLGEMM_EMULATE_WGMMA=1"
#endif

#define WGMMA_THREADS 128

/* Probe knob for the GPU only (bench/gpu_wgmma_probe.sh): 1 swaps the LBO and SBO fields.
 * With the fields as documented (0) the emulation and, if the reading above is right, the
 * hardware agree; if only 1 passes on the GPU, the reading of "leading" and "stride" above is
 * wrong.  The emulation always decodes as documented, so 1 fails there. */
#ifndef WGMMA_SWAP_LBO_SBO
#define WGMMA_SWAP_LBO_SBO 0
#endif

/* A no-swizzle descriptor: addr is a local-memory address (see WGMMA_SETUP), lbo and sbo byte
 * offsets, all multiples of 16 and below 2^18. */
inline ulong wgmma_desc(const uint addr, const uint lbo, const uint sbo)
{
    const uint l = WGMMA_SWAP_LBO_SBO ? sbo : lbo, s = WGMMA_SWAP_LBO_SBO ? lbo : sbo;
    return (ulong)((addr & 0x3ffffu) >> 4) | ((ulong)((l >> 4) & 0x3fffu) << 16) |
           ((ulong)((s >> 4) & 0x3fffu) << 32);
}

/* A descriptor with a swizzle mode (16-bit operands, and tf32 K-major with E = W / 4): swz the swizzle width in bytes,
 * 0 (none: as wgmma_desc), 32, 64 or 128, written as the layout type of bits 62-63 (sm_90:
 * 1 = 128B, 2 = 64B, 3 = 32B).  The base offset (bits 49-51) stays 0: every swizzle atom
 * must start at an address that is a multiple of 8 * swz (the pattern's repeat: 1024 bytes
 * for 128B), which the kernels get from a 1024-byte aligned arena and atom-sized regions.
 *
 * Swizzled layouts (CUTLASS's canonical GMMA layouts, mma_sm90_desc.hpp, in bytes; W = swz,
 * E = W / 2 values of 16 bits per row of an atom).  The layout is first described unswizzled
 * ("logical" address L), then every 16-byte chunk moves: bits 4.. of L are XORed with bits
 * 7.. of L (Swizzle<3,4,3> for 128B: chunk ^= (L >> 7) & 7; <2,4,3> for 64B: & 3; <1,4,3> for
 * 32B: & 1), wgmma_swz() below.  An atom is 8 rows of W bytes (8 * W bytes, aligned).
 *   K-major (A, or B untransposed), element (r, k), k < 16:
 *       L = start + (r / 8) * SBO + (r % 8) * W + k * 2            (LBO unused)
 *     so one k16 step is 32 bytes of a row; the next k16 step inside the same W-byte row is
 *     start + 32 (the XOR is applied to the whole address, so this works).
 *   MN-major (B with the transpose immediate), element (n, k):
 *       L = start + (n / E) * LBO + (k / 8) * SBO + (k % 8) * W + (n % E) * 2
 *     note the roles: LBO steps along N (atom to atom), SBO along K (8 k to the next 8),
 *     the reverse of the no-swizzle MN-major layout. */
inline uint wgmma_swz(const uint addr, const uint swz)
{
    return swz == 0u ? addr : addr ^ (((addr >> 7) & (swz / 16u - 1u)) << 4);
}
inline ulong wgmma_desc_swz(const uint addr, const uint lbo, const uint sbo, const uint swz)
{
    const ulong type = swz == 128u ? 1UL : swz == 64u ? 2UL : swz == 32u ? 3UL : 0UL;
    return wgmma_desc(addr, lbo, sbo) | (type << 62);
}

#if CLGEMM_EMULATE_WGMMA

#define WGMMA_SETUP(arena, linear_id)                                                \
    const uint wgmma_base_ = 0u;                                                     \
    __local uchar *const wgmma_arena_w_ = (__local uchar *)(arena);                  \
    __local const uchar *const wgmma_arena_ = wgmma_arena_w_;                        \
    const int wgmma_id_ = (linear_id) % WGMMA_THREADS

/* Element (r, k) of a K-major tf32 operand, as the tensor core reads it: no swizzle as above,
 * or swizzled as the 16-bit K-major layout of wgmma_desc_swz with 4-byte values (W / 4 of them
 * per atom row): L = start + (r / 8) * SBO + (r % 8) * W + k * 4, byte = wgmma_swz(L, W). */
inline float wgmma_emu_operand(__local const uchar *arena, const ulong desc, const int r,
                               const int k)
{
    const ulong fields = 0x3fffUL | (0x3fffUL << 16) | (0x3fffUL << 32) | (3UL << 62);
    if (desc & ~fields)   /* a base offset or reserved bits: not emulated */
        return as_float(0x7fc00000u);
    const uint start = (uint)(desc & 0x3fff) << 4;
    const uint lbo = (uint)((desc >> 16) & 0x3fff) << 4;
    const uint sbo = (uint)((desc >> 32) & 0x3fff) << 4;
    const uint type = (uint)(desc >> 62);
    uint byte;
    if (type == 0u) {
        byte = start + (uint)(r >> 3) * sbo + (uint)(k >> 2) * lbo + (uint)(r & 7) * 16u +
               (uint)(k & 3) * 4u;
    } else {
        const uint w = type == 1u ? 128u : type == 2u ? 64u : 32u;
        byte = wgmma_swz(start + (uint)(r >> 3) * sbo + (uint)(r & 7) * w + (uint)k * 4u, w);
    }
    return as_float(as_uint(*(__local const float *)(arena + byte)) & 0xffffe000u);
}

/* The D update of one m64nNk8 for the work-item with lane % 4 = t, given its two rows of A
 * (a_lo: row 16w + g, a_hi: row 16w + g + 8, as tf32 values): its N/2 entries of D, updated
 * in place.  Shared with kernels whose A comes from registers (10_wgmma_tma_tf32.cl). */
inline void wgmma_emu_m64k8_tf32_rows(float *d, const int n, const float *a_lo,
                                      const float *a_hi, const ulong desc_b,
                                      __local const uchar *arena, const int t)
{
    for (int c = 0; c < n / 8; ++c)
        for (int h = 0; h < 2; ++h) {
            const int col = 8 * c + 2 * t + h;
            float lo = d[4 * c + h], hi = d[4 * c + 2 + h];
            for (int k = 0; k < 8; ++k) {
                const float b = wgmma_emu_operand(arena, desc_b, col, k);
                lo += a_lo[k] * b;   /* exact products: only the sums round */
                hi += a_hi[k] * b;
            }
            d[4 * c + h] = lo;
            d[4 * c + 2 + h] = hi;
        }
}

/* This work-item's part of one m64nNk8: its N/2 entries of D, updated in place. */
inline void wgmma_emu_m64k8_tf32(float *d, const int n, const ulong desc_a, const ulong desc_b,
                                 __local const uchar *arena, const int id)
{
    const int w = id >> 5, g = (id & 31) >> 2, t = id & 3;
    float a_lo[8], a_hi[8];   /* rows 16w + g and 16w + g + 8 of A */
    for (int k = 0; k < 8; ++k) {
        a_lo[k] = wgmma_emu_operand(arena, desc_a, 16 * w + g, k);
        a_hi[k] = wgmma_emu_operand(arena, desc_a, 16 * w + g + 8, k);
    }
    wgmma_emu_m64k8_tf32_rows(d, n, a_lo, a_hi, desc_b, arena, t);
}

#define WGMMA_M64K8_TF32(N, d, desc_a, desc_b)                                       \
    wgmma_emu_m64k8_tf32((d), (N), (desc_a), (desc_b), wgmma_arena_, wgmma_id_)

/* 16-bit bit patterns -> float, exactly (as mma16.h's, repeated so that this header stands
 * alone). */
inline float wgmma_emu_f16(const uint h)
{
    const uint sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0u)
        return as_float(sign | as_uint((float)man * 0x1.0p-24f));
    if (exp == 31u)
        return as_float(sign | 0x7f800000u | (man << 13));
    return as_float(sign | ((exp + 112u) << 23) | (man << 13));
}

/* Element (r, k) of a no-swizzle 16-bit operand (r < 64 or N, k < 16), as the tensor core
 * reads it.  Core matrices are 8 x 16 bytes (8 x 8 values), 128 contiguous bytes.
 *   K-major (mn_major = 0): a core matrix's rows are 8 rows r, each 8 consecutive k;
 *       byte = start + (r / 8) * SBO + (k / 8) * LBO + (r % 8) * 16 + (k % 8) * 2
 *   MN-major (mn_major = 1, transpose immediate 1): its rows are 8 k, each 8 consecutive r;
 *       byte = start + (r / 8) * SBO + (k / 8) * LBO + (k % 8) * 16 + (r % 8) * 2
 * (CUTLASS's canonical no-swizzle layouts in units of T = 8 values: K-major
 * ((8,m),(T,2k)):((1T,SBO),(1,LBO)), MN-major ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)): in both
 * SBO steps along M/N and LBO along K). */
inline float wgmma_emu_operand16(__local const uchar *arena, const ulong desc, const int r,
                                 const int k, const int mn_major, const int bf16)
{
    const ulong fields = 0x3fffUL | (0x3fffUL << 16) | (0x3fffUL << 32) | (3UL << 62);
    if (desc & ~fields)   /* a base offset or reserved bits: not emulated */
        return as_float(0x7fc00000u);
    const uint start = (uint)(desc & 0x3fff) << 4;
    const uint lbo = (uint)((desc >> 16) & 0x3fff) << 4;
    const uint sbo = (uint)((desc >> 32) & 0x3fff) << 4;
    const uint type = (uint)(desc >> 62);
    uint byte;
    if (type == 0u) {
        const uint in_core = mn_major ? (uint)(k & 7) * 16u + (uint)(r & 7) * 2u
                                      : (uint)(r & 7) * 16u + (uint)(k & 7) * 2u;
        byte = start + (uint)(r >> 3) * sbo + (uint)(k >> 3) * lbo + in_core;
    } else {   /* swizzled: see wgmma_desc_swz */
        const uint w = type == 1u ? 128u : type == 2u ? 64u : 32u, e = w / 2u;
        const uint logical = mn_major
            ? start + ((uint)r / e) * lbo + (uint)(k >> 3) * sbo + (uint)(k & 7) * w +
                  ((uint)r % e) * 2u
            : start + (uint)(r >> 3) * sbo + (uint)(r & 7) * w + (uint)k * 2u;
        byte = wgmma_swz(logical, w);
    }
    const uint h = *(__local const ushort *)(arena + byte);
    return bf16 ? as_float(h << 16) : wgmma_emu_f16(h);
}

/* This work-item's part of one m64nNk16 (f16 or bf16 inputs, fp32 accumulators; the D
 * fragment as for k8).  A is K-major; B K-major or, trans_b = 1, N-major.  Products of two
 * 16-bit values are exact in fp32 (bf16 within fp32's range). */
inline void wgmma_emu_m64k16(float *d, const int n, const ulong desc_a, const ulong desc_b,
                             __local const uchar *arena, const int id, const int bf16,
                             const int trans_b)
{
    const int w = id >> 5, g = (id & 31) >> 2, t = id & 3;
    float a_lo[16], a_hi[16];
    for (int k = 0; k < 16; ++k) {
        a_lo[k] = wgmma_emu_operand16(arena, desc_a, 16 * w + g, k, 0, bf16);
        a_hi[k] = wgmma_emu_operand16(arena, desc_a, 16 * w + g + 8, k, 0, bf16);
    }
    for (int c = 0; c < n / 8; ++c)
        for (int h = 0; h < 2; ++h) {
            const int col = 8 * c + 2 * t + h;
            float lo = d[4 * c + h], hi = d[4 * c + 2 + h];
            for (int k = 0; k < 16; ++k) {
                const float b = wgmma_emu_operand16(arena, desc_b, col, k, trans_b, bf16);
                lo += a_lo[k] * b;
                hi += a_hi[k] * b;
            }
            d[4 * c + h] = lo;
            d[4 * c + 2 + h] = hi;
        }
}

#define WGMMA_M64K16(N, d, desc_a, desc_b, BF16, TRANS_B)                            \
    wgmma_emu_m64k16((d), (N), (desc_a), (desc_b), wgmma_arena_, wgmma_id_, (BF16), (TRANS_B))
/* cp.async, emulated: a plain copy at issue time (one legal schedule of the asynchronous
 * copy), zero-filling what lies past `bytes`; commit and wait are empty.  dst is a byte
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
#define CPASYNC_4(arena, dst, src) cpasync_emu((arena), (dst), (__global const uchar *)(src), 4, 4)
#define CPASYNC_4Z(arena, dst, src, bytes) \
    cpasync_emu((arena), (dst), (__global const uchar *)(src), 4, (bytes))
#define CPASYNC_COMMIT() ((void)0)
#define CPASYNC_WAIT(n) ((void)0)
#define WGMMA_PROXY_FENCE() ((void)0)
#define WGMMA_FENCE() ((void)0)
#define WGMMA_COMMIT() ((void)0)
#define WGMMA_WAIT(n) ((void)0)
#define WGMMA_KEEP(x) ((void)0)

#else /* the tensor cores: NVIDIA OpenCL on sm_90, built through the sm_90a post-pass */

/* The local-memory state-space address of a __local pointer is its value as an integer. */
#define WGMMA_SETUP(arena, linear_id)                                                \
    const uint wgmma_base_ = (uint)(size_t)(arena);                                  \
    __local uchar *const wgmma_arena_w_ = (__local uchar *)(arena)

#define WGMMA_PROXY_FENCE() asm volatile("// @sm90a fence.proxy.async.shared::cta;" ::: "memory")
#define WGMMA_FENCE() asm volatile("// @sm90a wgmma.fence.sync.aligned;" ::: "memory")
#define WGMMA_COMMIT() asm volatile("// @sm90a wgmma.commit_group.sync.aligned;" ::: "memory")
#define WGMMA_WAIT_(n) asm volatile("// @sm90a wgmma.wait_group.sync.aligned " #n ";" ::: "memory")
#define WGMMA_WAIT(n) WGMMA_WAIT_(n)
#define WGMMA_KEEP(x) asm volatile("" : "+f"(x) :: "memory")

/* cp.async (sm_80 and later, plain sm_90 PTX: no marker needed).  dst a local-memory byte
 * address as for wgmma_desc, src a __global pointer (any type); the 16-byte form bypasses L1 (.cg)
 * and needs both 16-byte aligned, the 4-byte form goes through L1 (.ca, the only choice for 4
 * bytes).  The Z forms copy only `bytes` (0 .. cp-size) and fill the rest with zeros; src
 * must still be a valid address. */
#define CPASYNC_16(arena, dst, src) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" \
    :: "r"(dst), "l"((ulong)(src)) : "memory")
#define CPASYNC_16Z(arena, dst, src, bytes) asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" \
    :: "r"(dst), "l"((ulong)(src)), "r"(bytes) : "memory")
#define CPASYNC_4(arena, dst, src) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" \
    :: "r"(dst), "l"((ulong)(src)) : "memory")
#define CPASYNC_4Z(arena, dst, src, bytes) asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" \
    :: "r"(dst), "l"((ulong)(src)), "r"(bytes) : "memory")
#define CPASYNC_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
#define CPASYNC_WAIT_(n) asm volatile("cp.async.wait_group " #n ";" ::: "memory")
#define CPASYNC_WAIT(n) CPASYNC_WAIT_(n)

/* The accumulator operands, "+f" each: the instruction reads and writes them. */
#define WGMMA_D4(d, i) "+f"((d)[(i)]), "+f"((d)[(i) + 1]), "+f"((d)[(i) + 2]), "+f"((d)[(i) + 3])
#define WGMMA_D8(d, i) WGMMA_D4(d, i), WGMMA_D4(d, (i) + 4)
#define WGMMA_D16(d, i) WGMMA_D8(d, i), WGMMA_D8(d, (i) + 8)
#define WGMMA_D32(d, i) WGMMA_D16(d, i), WGMMA_D16(d, (i) + 16)
#define WGMMA_D64(d, i) WGMMA_D32(d, i), WGMMA_D32(d, (i) + 32)
#define WGMMA_D128(d, i) WGMMA_D64(d, i), WGMMA_D64(d, (i) + 64)

/* One macro per N: the register list is spelled out (the preprocessor cannot count).  The
 * scale-d operand is a predicate (true: D += A*B); only the wgmma line is a marker, the
 * predicate's set-up is plain sm_90 PTX. */
#define WGMMA_ASM_N8(kind, tail, d, da, db) \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n" \
    "// @sm90a wgmma.mma_async.sync.aligned.m64n8" kind " {" \
    "%0, %1, %2, %3" \
    "}, %4, %5, p, 1, 1" tail ";\n}" \
    : WGMMA_D4(d, 0) \
    : "l"(da), "l"(db), "r"(1) \
    : "memory")

#define WGMMA_ASM_N16(kind, tail, d, da, db) \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n" \
    "// @sm90a wgmma.mma_async.sync.aligned.m64n16" kind " {" \
    "%0, %1, %2, %3, %4, %5, %6, %7" \
    "}, %8, %9, p, 1, 1" tail ";\n}" \
    : WGMMA_D8(d, 0) \
    : "l"(da), "l"(db), "r"(1) \
    : "memory")

#define WGMMA_ASM_N32(kind, tail, d, da, db) \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n" \
    "// @sm90a wgmma.mma_async.sync.aligned.m64n32" kind " {" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15" \
    "}, %16, %17, p, 1, 1" tail ";\n}" \
    : WGMMA_D16(d, 0) \
    : "l"(da), "l"(db), "r"(1) \
    : "memory")

#define WGMMA_ASM_N64(kind, tail, d, da, db) \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n" \
    "// @sm90a wgmma.mma_async.sync.aligned.m64n64" kind " {" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31" \
    "}, %32, %33, p, 1, 1" tail ";\n}" \
    : WGMMA_D32(d, 0) \
    : "l"(da), "l"(db), "r"(1) \
    : "memory")

#define WGMMA_ASM_N128(kind, tail, d, da, db) \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n" \
    "// @sm90a wgmma.mma_async.sync.aligned.m64n128" kind " {" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63" \
    "}, %64, %65, p, 1, 1" tail ";\n}" \
    : WGMMA_D64(d, 0) \
    : "l"(da), "l"(db), "r"(1) \
    : "memory")

#define WGMMA_ASM_N256(kind, tail, d, da, db) \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n" \
    "// @sm90a wgmma.mma_async.sync.aligned.m64n256" kind " {" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127" \
    "}, %128, %129, p, 1, 1" tail ";\n}" \
    : WGMMA_D128(d, 0) \
    : "l"(da), "l"(db), "r"(1) \
    : "memory")

#define WGMMA_CAT_(a, b) a##b
#define WGMMA_CAT(a, b) WGMMA_CAT_(a, b)
#define WGMMA_M64K8_TF32(N, d, desc_a, desc_b) \
    WGMMA_CAT(WGMMA_ASM_N, N)("k8.f32.tf32.tf32", "", d, desc_a, desc_b)
/* 16-bit inputs: the type by BF16 (0 or 1), and the transpose immediates: A never
 * transposed (K-major), B as TRANS_B (0: K-major, 1: N-major).  Both literal 0 or 1. */
#define WGMMA_K16_TYPE_0 "k16.f32.f16.f16"
#define WGMMA_K16_TYPE_1 "k16.f32.bf16.bf16"
#define WGMMA_K16_TRANS_0 ", 0, 0"
#define WGMMA_K16_TRANS_1 ", 0, 1"
#define WGMMA_M64K16(N, d, desc_a, desc_b, BF16, TRANS_B) \
    WGMMA_CAT(WGMMA_ASM_N, N)(WGMMA_CAT(WGMMA_K16_TYPE_, BF16), \
                              WGMMA_CAT(WGMMA_K16_TRANS_, TRANS_B), d, desc_a, desc_b)

/* TF32 with A from registers (m64nNk8, N = 64, 128 or 256): a[4] holds this work-item's part
 * of the 64 x 8 A tile as tf32 bit patterns (uint), laid out as mma.sync's m16n8k8 A fragment
 * per warp: warp w, lane (g, t) = (lane / 4, lane % 4) holds A[16w + g][t], A[16w + g + 8][t],
 * A[16w + g][t + 4], A[16w + g + 8][t + 4].  B comes from local memory (K-major) through its
 * descriptor.  The registers are read asynchronously: they must keep their values until the
 * wgmma's group has been waited for (ptxas tracks this for wgmma operands). */
#define WGMMA_RA_N64(d, a, db, s) \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n" \
    "// @sm90a wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31" \
    "}, {%32, %33, %34, %35}, %36, p, 1, 1;\n}" \
    : WGMMA_D32(d, 0) \
    : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "l"(db), "r"(s) \
    : "memory")

#define WGMMA_RA_N128(d, a, db, s) \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n" \
    "// @sm90a wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63" \
    "}, {%64, %65, %66, %67}, %68, p, 1, 1;\n}" \
    : WGMMA_D64(d, 0) \
    : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "l"(db), "r"(s) \
    : "memory")

#define WGMMA_RA_N256(d, a, db, s) \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n" \
    "// @sm90a wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127" \
    "}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}" \
    : WGMMA_D128(d, 0) \
    : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "l"(db), "r"(s) \
    : "memory")
/* ..._S: scale-d as an int (0: D = A*B, the accumulators' old values ignored; else D += A*B). */
#define WGMMA_M64K8_TF32_RA_S(N, d, a, desc_b, s) WGMMA_CAT(WGMMA_RA_N, N)(d, a, desc_b, (s))
#define WGMMA_M64K8_TF32_RA(N, d, a, desc_b) WGMMA_M64K8_TF32_RA_S(N, d, a, desc_b, 1)

#endif

#endif
