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
 *     bits 62-63  swizzle mode: 0 = none ("interleave"); 1 = 128B, 2 = 64B, 3 = 32B
 *                 (wgmma_desc_swz, described there)
 * For tf32 both operands must be K-major (the transpose flags exist only for f16/bf16): A as
 * its rows, B as its columns, i.e. B^T row by row.  Without swizzling a K-major operand is made
 * of core matrices of 8 rows x 16 bytes (8 x 4 tf32), each 128 contiguous bytes, row after row.
 * One k8 step spans two core matrices along K, LBO bytes apart; the next 8 rows (of M for A,
 * of N for B) start SBO bytes further.  So element (r, k), r < 64 (or N), k < 8, lives at
 *     start + (r / 8) * SBO + (k / 4) * LBO + (r % 8) * 16 + (k % 4) * 4
 * (the "Shared Memory Matrix Layout" section; its no-swizzle K-major atom is 8 x 1 in units
 * of 16 bytes, and LBO is the stride between the two atoms of a k8 step).
 *
 * WGMMA_M64K16_AB(N, d, desc_a, desc_b, DTYPE, TRANS_A, TRANS_B) is the 16-bit form,
 *     wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16 (DTYPE = 1) or .bf16.bf16 (DTYPE = 2)
 *         d, desc_a, desc_b, 1, 1, 1, TRANS_A, TRANS_B
 * with A 64 x 16 and B 16 x N, 16-bit values in local memory, the same D fragment
 * (WGMMA_M64K16(N, d, desc_a, desc_b, DTYPE, TRANS_B): TRANS_A = 0).  Its core matrices are
 * 8 x 16 bytes = 8 x 8 values.  A is K-major as above (TRANS_A = 0: k % 8 picks the value in
 * a row of 16 bytes, k / 8 the core matrix, LBO apart) or M-major (TRANS_A = 1, laid out as
 * N-major B below with m for n).  B is K-major likewise (TRANS_B = 0)
 * or N-major (TRANS_B = 1): then a core matrix's 8 rows of 16 bytes are 8 consecutive k, each
 * holding 8 consecutive n, so element (n, k) lives at
 *     start + (n / 8) * SBO + (k / 8) * LBO + (k % 8) * 16 + (n % 8) * 2
 * (CUTLASS's no-swizzle MN-major canonical layout ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)), T = 8
 * values: SBO steps along N and LBO along K, as for K-major).  Row-major B lands N-major with
 * plain 16-byte copies, and so does A stored K x M (a transposed A) M-major.  DTYPE must be
 * literal 1 or 2, TRANS_A and TRANS_B literal 0 or 1.
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
 * CLGEMM_EMULATE_WGMMA=1 selects the emulation (mma/wgmma_emulated.h), portable OpenCL C 1.2:
 * each wgmma decodes its descriptors exactly as above and updates this work-item's N/2
 * entries of D in the fragment layout above, at once; fences, commits and waits are empty,
 * which is one legal schedule of the asynchronous instruction.  It computes what the tensor
 * core computes: a tf32 operand read from local memory is truncated to tf32 (the low 13 bits
 * dropped: there is no conversion on the way), 16-bit operands are exact, and products are
 * exact in fp32, so only the order of the sums differs from the hardware.
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

/* A no-swizzle descriptor: addr is a local-memory address (see WGMMA_SETUP), lbo and sbo byte
 * offsets, all multiples of 16 and below 2^18. */
inline ulong wgmma_desc(const uint addr, const uint lbo, const uint sbo)
{
    return (ulong)((addr & 0x3ffffu) >> 4) | ((ulong)((lbo >> 4) & 0x3fffu) << 16) |
           ((ulong)((sbo >> 4) & 0x3fffu) << 32);
}

/* A descriptor with a swizzle mode (16-bit operands, and tf32 K-major with E = W / 4): swz
 * the swizzle width in bytes, 0 (none: as wgmma_desc), 32, 64 or 128, written as the layout
 * type of bits 62-63 (sm_90:
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
 *   MN-major (A or B with its transpose immediate), element (n, k) (n: m for A):
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
#include "mma/wgmma_emulated.h"
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
 * address as for wgmma_desc, src a __global pointer (any type), both 16-byte aligned; the copy
 * bypasses L1 (.cg).  The Z form copies only `bytes` (0 .. 16) and fills the rest with zeros;
 * src must still be a valid address. */
#define CPASYNC_16(arena, dst, src) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" \
    :: "r"(dst), "l"((ulong)(src)) : "memory")
#define CPASYNC_16Z(arena, dst, src, bytes) asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" \
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
/* D's registers as operand numbers %0 .. %(N/2 - 1), one list per N (the preprocessor
 * cannot count). */
#define WGMMA_DL4 "%0, %1, %2, %3"
#define WGMMA_DL8 WGMMA_DL4 \
    ", %4, %5, %6, %7"
#define WGMMA_DL16 WGMMA_DL8 \
    ", %8, %9, %10, %11, %12, %13, %14, %15"
#define WGMMA_DL32 WGMMA_DL16 \
    ", %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define WGMMA_DL64 WGMMA_DL32 \
    ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47" \
    ", %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define WGMMA_DL128 WGMMA_DL64 \
    ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79" \
    ", %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95" \
    ", %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111" \
    ", %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"

/* Both operands from local memory (SS): after D, the two descriptors, then scale-d's flag.
 * The scale-d operand is a predicate (true: D += A*B); only the wgmma line is a marker, the
 * predicate's set-up is plain sm_90 PTX. */
#define WGMMA_SS_ASM(shape, kind, tail, dlist, descs, flag, D, da, db)                       \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " flag ", 0;\n"                           \
                 "// @sm90a wgmma.mma_async.sync.aligned." shape kind " {" dlist "}, " descs  \
                 ", p, 1, 1" tail ";\n}"                                                     \
                 : D                                                                         \
                 : "l"(da), "l"(db), "r"(1)                                                  \
                 : "memory")
#define WGMMA_ASM_N8(kind, tail, d, da, db) \
    WGMMA_SS_ASM("m64n8", kind, tail, WGMMA_DL4, "%4, %5", "%6", WGMMA_D4(d, 0), da, db)
#define WGMMA_ASM_N16(kind, tail, d, da, db) \
    WGMMA_SS_ASM("m64n16", kind, tail, WGMMA_DL8, "%8, %9", "%10", WGMMA_D8(d, 0), da, db)
#define WGMMA_ASM_N32(kind, tail, d, da, db) \
    WGMMA_SS_ASM("m64n32", kind, tail, WGMMA_DL16, "%16, %17", "%18", WGMMA_D16(d, 0), da, db)
#define WGMMA_ASM_N64(kind, tail, d, da, db) \
    WGMMA_SS_ASM("m64n64", kind, tail, WGMMA_DL32, "%32, %33", "%34", WGMMA_D32(d, 0), da, db)
#define WGMMA_ASM_N128(kind, tail, d, da, db) \
    WGMMA_SS_ASM("m64n128", kind, tail, WGMMA_DL64, "%64, %65", "%66", WGMMA_D64(d, 0), da, db)
#define WGMMA_ASM_N256(kind, tail, d, da, db) \
    WGMMA_SS_ASM("m64n256", kind, tail, WGMMA_DL128, "%128, %129", "%130", WGMMA_D128(d, 0), da, db)

/* A from registers (RS), TF32 only here: after D, A's four registers (their bits: tf32
 * values, rounded by the kernel), B's descriptor, then scale-d's flag. */
#define WGMMA_RS_ASM(shape, dlist, ops, flag, D, a, db)                                      \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " flag ", 0;\n"                           \
                 "// @sm90a wgmma.mma_async.sync.aligned." shape "k8.f32.tf32.tf32 {" dlist   \
                 "}, " ops ", p, 1, 1;\n}"                                                   \
                 : D                                                                         \
                 : "r"(as_uint((a)[0])), "r"(as_uint((a)[1])), "r"(as_uint((a)[2])),         \
                   "r"(as_uint((a)[3])), "l"(db), "r"(1)                                     \
                 : "memory")
#define WGMMA_RS_N8(d, a, db) \
    WGMMA_RS_ASM("m64n8", WGMMA_DL4, "{%4, %5, %6, %7}, %8", "%9", WGMMA_D4(d, 0), a, db)
#define WGMMA_RS_N16(d, a, db) \
    WGMMA_RS_ASM("m64n16", WGMMA_DL8, "{%8, %9, %10, %11}, %12", "%13", WGMMA_D8(d, 0), a, db)
#define WGMMA_RS_N32(d, a, db) \
    WGMMA_RS_ASM("m64n32", WGMMA_DL16, "{%16, %17, %18, %19}, %20", "%21", WGMMA_D16(d, 0), a, db)
#define WGMMA_RS_N64(d, a, db) \
    WGMMA_RS_ASM("m64n64", WGMMA_DL32, "{%32, %33, %34, %35}, %36", "%37", WGMMA_D32(d, 0), a, db)
#define WGMMA_RS_N128(d, a, db) \
    WGMMA_RS_ASM("m64n128", WGMMA_DL64, "{%64, %65, %66, %67}, %68", "%69", WGMMA_D64(d, 0), a, db)
#define WGMMA_RS_N256(d, a, db) \
    WGMMA_RS_ASM("m64n256", WGMMA_DL128, "{%128, %129, %130, %131}, %132", "%133", WGMMA_D128(d, 0), a, db)

#define WGMMA_CAT_(a, b) a##b
#define WGMMA_CAT(a, b) WGMMA_CAT_(a, b)
#define WGMMA_M64K8_TF32(N, d, desc_a, desc_b) \
    WGMMA_CAT(WGMMA_ASM_N, N)("k8.f32.tf32.tf32", "", d, desc_a, desc_b)
/* desc_a: where the registers' values lie in local memory (M-major where a_mn), which only the
 * emulation reads */
#define WGMMA_M64K8_TF32_RS(N, d, a, desc_a, desc_b, a_mn) \
    WGMMA_CAT(WGMMA_RS_N, N)(d, a, desc_b)
/* the same with tf32x3's lo half of A in the registers (the emulation checks which half) */
#define WGMMA_M64K8_TF32_RS_LO(N, d, a, desc_a, desc_b, a_mn) \
    WGMMA_M64K8_TF32_RS(N, d, a, desc_a, desc_b, a_mn)
/* 16-bit inputs: the type by DTYPE (1 f16, 2 bf16), and the transpose immediates imm-trans-a
 * and imm-trans-b: A as TRANS_A (0: K-major, 1: M-major), B as TRANS_B (0: K-major, 1:
 * N-major).  All literals (or macros that expand to one). */
#define WGMMA_K16_TYPE_1 "k16.f32.f16.f16"
#define WGMMA_K16_TYPE_2 "k16.f32.bf16.bf16"
#define WGMMA_K16_T_00 ", 0, 0"
#define WGMMA_K16_T_01 ", 0, 1"
#define WGMMA_K16_T_10 ", 1, 0"
#define WGMMA_K16_T_11 ", 1, 1"
#define WGMMA_M64K16_AB(N, d, desc_a, desc_b, DTYPE, TRANS_A, TRANS_B) \
    WGMMA_CAT(WGMMA_ASM_N, N)(WGMMA_CAT(WGMMA_K16_TYPE_, DTYPE), \
                              WGMMA_CAT(WGMMA_K16_T_, WGMMA_CAT(TRANS_A, TRANS_B)), d, desc_a, \
                              desc_b)
#define WGMMA_M64K16(N, d, desc_a, desc_b, DTYPE, TRANS_B) \
    WGMMA_M64K16_AB(N, d, desc_a, desc_b, DTYPE, 0, TRANS_B)

#endif

#endif
