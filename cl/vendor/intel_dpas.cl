#include "common.h"

/* Step 8 (gemm_mma), Intel backend: the XMX systolic arrays through DPAS.
 *
 * Intel Xe-HPG (Arc / DG2, Flex) and Xe-HPC (Max / PVC) GPUs carry "XMX" matrix
 * engines next to the vector ALUs.  Their instruction, DPAS (dot product
 * accumulate systolic), multiplies an M x 16 block of fp16 values by a
 * 16 x SG block and adds the product to an M x SG fp32 block, where SG is the
 * subgroup size (8 on DG2, 16 on PVC) and M is 1..8.  OpenCL C reaches it
 * through cl_intel_subgroup_matrix_multiply_accumulate:
 *
 *     float8 intel_sub_group_f16_f16_matrix_mad_k16(int8 a, int8 b, float8 acc);    SG = 8
 *     float8 intel_sub_group_f16_f16_matrix_mad_k16(short8 a, int8 b, float8 acc);  SG = 16
 *
 * The whole subgroup executes it together; each lane holds a slice of every
 * operand (lane = get_sub_group_local_id(), row r = vector component r):
 *   a    row r of A's 8 x 16 block: with SG = 8 lane l holds k = 2l and 2l+1 as
 *        two halves packed in one int (k = 2l in the low 16 bits); with SG = 16
 *        lane l holds k = l as one half in a short.
 *   b    column n = l of B's 16 x SG block: component i packs k = 2i (low half)
 *        and k = 2i+1 (high half), for i = 0..7.
 *   acc  column n = l of the 8 x SG fp32 block: component r is row r.
 * One call is 8*16*SG multiply-adds issued as a single instruction, where the
 * vector ALUs of the same subgroup need 16*8 fp32 FMAs per lane: on DG2 the
 * XMX units' peak is about 8x the fp32 vector peak (fp16 in, fp32 out).
 *
 * The kernel is step 6's structure with the inner loop replaced: a work-group
 * stages BM x BK of A and BK x BN of B in local memory, converted to fp16 on the
 * way in (A row-major, so lane l's pair of halves for row r is one aligned int;
 * B with rows k and k+1 interleaved, so component i of b is one int), and each
 * subgroup owns a TM x (SG*TN) tile of C: TM/8 row blocks times TN column
 * blocks, each one float8 accumulator per lane.  A work-item still owns
 * TM * TN results, so the host's launch geometry (BN/TN, BM/TM) is unchanged.
 *
 * Precision: inputs are rounded to fp16 (11-bit significand, |x| <= 65504; larger
 * values become inf), products are accumulated in fp32.  The host checks this
 * kernel against the "f16" tolerance, not fp32's.
 *
 * 16-bit inputs (DTYPE = 1 f16, 2 bf16; --dtype f16 / bf16): A and B arrive as f16 or
 * bf16 bit patterns (ushort buffers) and are staged as they are, with no conversion;
 * DTYPE = 2 calls the bf16 form of the built-in (intel_sub_group_bf16_bf16_matrix_mad_k16,
 * same operand layout).  Offsets and leading dimensions are multiples of 8 there (the
 * host's 16-bit path), so four values are one aligned 8-byte load.
 *
 * Status: compile-tested only (ocloc for dg2 and pvc in
 * tests/test_vendor_compile.sh, which also checks that DPAS is emitted); no
 * Intel GPU has run it yet.
 */

#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 64
#endif
#ifndef BK
#define BK 32   /* two DPAS k-steps per tile load */
#endif
#ifndef TM
#define TM 16   /* rows per subgroup tile: TM/8 DPAS row blocks */
#endif
#ifndef TN
#define TN 2    /* DPAS column blocks per subgroup tile (SG columns each) */
#endif
#ifndef SG
#define SG 8    /* subgroup size: 8 on Xe-HPG (DG2), 16 on Xe-HPC (PVC) and Xe2 */
#endif

#ifndef DTYPE
#define DTYPE 0 /* A and B: 0 fp32 (rounded to fp16 here), 1 f16, 2 bf16 bit patterns (ushort) */
#endif

#if DTYPE != 0 && DTYPE != 1 && DTYPE != 2
#error "gemm_mma (Intel): DTYPE must be 0 (fp32), 1 (f16) or 2 (bf16)"
#endif

#if SG != 8 && SG != 16
#error "gemm_mma (Intel): SG must be 8 or 16"
#endif
#if TM % 8 != 0 || BK % 16 != 0
#error "gemm_mma (Intel): TM must be a multiple of 8 and BK of 16"
#endif
#if BM % TM != 0 || BN % (SG * TN) != 0
#error "gemm_mma (Intel): BM must be a multiple of TM and BN of SG*TN"
#endif

#define TI_TX (BN / TN)                   /* work-items along dimension 0 */
#define TI_TY (BM / TM)                   /* work-items along dimension 1 */
#define TI_THREADS (TI_TX * TI_TY)
#define TI_SG_COLS (BN / (SG * TN))       /* subgroup tiles across the block */
#define TI_FM (TM / 8)                    /* DPAS row blocks per subgroup */

#if (BM * BK / 4) % TI_THREADS != 0 || (BK / 2 * BN / 4) % TI_THREADS != 0
#error "gemm_mma (Intel): BM*BK/4 and BK*BN/8 must be multiples of the work-group size"
#endif

/* The built-in, declared by hand where the compiler's headers lack it (the
 * Intel graphics compiler implements it, but older front ends, Debian 12's
 * included, do not declare it nor define the extension macro). */
#ifndef cl_intel_subgroup_matrix_multiply_accumulate
#if SG == 8
float8 __attribute__((overloadable)) intel_sub_group_f16_f16_matrix_mad_k16(int8 a, int8 b, float8 acc);
float8 __attribute__((overloadable)) intel_sub_group_bf16_bf16_matrix_mad_k16(int8 a, int8 b, float8 acc);
#else
float8 __attribute__((overloadable)) intel_sub_group_f16_f16_matrix_mad_k16(short8 a, int8 b, float8 acc);
float8 __attribute__((overloadable)) intel_sub_group_bf16_bf16_matrix_mad_k16(short8 a, int8 b, float8 acc);
#endif
#endif
#if DTYPE == 2
#define TI_MAD intel_sub_group_bf16_bf16_matrix_mad_k16
#else
#define TI_MAD intel_sub_group_f16_f16_matrix_mad_k16
#endif

#if DTYPE
typedef ushort ti_in;      /* the kernel's A and B elements */
#else
typedef float ti_in;
#endif

#if SG == 8
typedef int ti_a_elem;     /* one lane's share of a row of A: two halves */
typedef int8 ti_a_frag;
#else
typedef short ti_a_elem;   /* one half */
typedef short8 ti_a_frag;
#endif

/* Four consecutive floats at p (16-byte aligned); guarded, only the first
 * `valid` exist and the rest read as zero (see step 6). */
inline float4 ti_load4(__global const float *p, const int valid, const bool guarded)
{
    if (!guarded || valid >= 4)
        return *(__global const float4 *)p;
    return (float4)(valid > 0 ? p[0] : 0.0f,
                    valid > 1 ? p[1] : 0.0f,
                    valid > 2 ? p[2] : 0.0f,
                    0.0f);
}

/* The same for four 16-bit values (8-byte aligned: offsets and lds are multiples of 8). */
inline ushort4 ti_load4h(__global const ushort *p, const int valid, const bool guarded)
{
    if (!guarded || valid >= 4)
        return vload4(0, p);
    return (ushort4)(valid > 0 ? p[0] : (ushort)0, valid > 1 ? p[1] : (ushort)0,
                     valid > 2 ? p[2] : (ushort)0, (ushort)0);
}

#if DTYPE
/* Four values of a row of A or B, and where they go: 16-bit inputs are stored as they are
 * (zero is 0x0000 in f16 and bf16 alike). */
#define TI_LOAD4(p, valid, guarded) ti_load4h((p), (valid), (guarded))
#define TI_STORE_A(v, dst) vstore4((v), 0, (__local ushort *)(dst))
#define TI_STORE_B(lo, hi, dst)                                                           \
    vstore8((ushort8)((lo).x, (hi).x, (lo).y, (hi).y, (lo).z, (hi).z, (lo).w, (hi).w), 0,   \
            (__local ushort *)(dst))
#else
/* fp32 inputs are rounded to fp16 on the way. */
#define TI_LOAD4(p, valid, guarded) ti_load4((p), (valid), (guarded))
#define TI_STORE_A(v, dst) vstore_half4_rte((v), 0, (dst))
#define TI_STORE_B(lo, hi, dst)                                                           \
    vstore_half8_rte((float8)((lo).x, (hi).x, (lo).y, (hi).y, (lo).z, (hi).z, (lo).w,        \
                              (hi).w), 0, (dst))
#endif

/* Stage the tiles as fp16 (round to nearest even), or as the 16-bit inputs are:
 *   As[m * BK + k]              = A(m, k)             (row-major)
 *   Bs[((k/2) * BN + n) * 2 + (k&1)] = B(k, n)        (row pairs interleaved)
 * Outside the matrix (edges of M, N, K) the tiles hold zeros, so the products
 * of edge blocks are exact and the extra rows/columns are simply not stored. */
inline void ti_load_tiles(__local half *As, __local half *Bs,
                          __global const ti_in *A, const int lda,
                          __global const ti_in *B, const int ldb,
                          const int rows_left, const int cols_left, const int k_left,
                          const int tid, const bool guarded)
{
#pragma unroll
    for (int i = 0; i < BM * BK / 4 / TI_THREADS; ++i) {
        const int e = tid + i * TI_THREADS;
        const int r = e / (BK / 4), k = (e % (BK / 4)) * 4;
        TI_STORE_A(TI_LOAD4(A + r * lda + k, r < rows_left ? k_left - k : 0, guarded),
                   As + r * BK + k);
    }
#pragma unroll
    for (int i = 0; i < BK / 2 * BN / 4 / TI_THREADS; ++i) {
        const int e = tid + i * TI_THREADS;
        const int k = (e / (BN / 4)) * 2, c = (e % (BN / 4)) * 4;
        TI_STORE_B(TI_LOAD4(B + k * ldb + c, k < k_left ? cols_left - c : 0, guarded),
                   TI_LOAD4(B + (k + 1) * ldb + c, k + 1 < k_left ? cols_left - c : 0, guarded),
                   Bs + ((k / 2) * BN + c) * 2);
    }
}

__kernel __attribute__((reqd_work_group_size(TI_TX, TI_TY, 1)))
__attribute__((intel_reqd_sub_group_size(SG)))
void gemm_mma(const int M, const int N, const int K, const float alpha,
              __global const ti_in *restrict A, const int offA, const int lda,
              __global const ti_in *restrict B, const int offB, const int ldb,
              const float beta,
              __global gemm_c_t *restrict C, const int offC, const int ldc,
              __global const gemm_c_t *restrict bias, const int offBias,
              const int strideA, const int strideB, const int strideC)
{
    GEMM_BATCH_ENTRY(A, B, C);
    /* Declared as int so that no half-typed variable is needed (cl_khr_fp16 is
     * not required: halves are only written by vstore_half and read as bits). */
    __local int As_bits[BM * BK / 2];
    __local int Bs_bits[BK * BN / 2];
    __local half *As = (__local half *)As_bits;
    __local half *Bs = (__local half *)Bs_bits;

    const int tid = get_local_id(1) * TI_TX + get_local_id(0);
    const int lane = get_sub_group_local_id();
    const int sg = get_sub_group_id();
    const int wm0 = (sg / TI_SG_COLS) * TM;          /* the subgroup tile's corner */
    const int wn0 = (sg % TI_SG_COLS) * (SG * TN);

    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
    const int rows_left = M - row0, cols_left = N - col0;
    A += offA + row0 * lda;
    B += offB + col0;
    GEMM_C_MOVE(row0, col0);
    GEMM_BIAS_MOVE(row0, col0);
    const bool edge = rows_left < BM || cols_left < BN;

    float8 acc[TI_FM][TN];
#pragma unroll
    for (int i = 0; i < TI_FM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = (float8)(0.0f);

    __local const ti_a_elem *Aa = (__local const ti_a_elem *)As_bits;

    for (int k0 = 0; k0 < K; k0 += BK) {
        if (edge || K - k0 < BK)
            ti_load_tiles(As, Bs, A + k0, lda, B + k0 * ldb, ldb,
                          rows_left, cols_left, K - k0, tid, true);
        else
            ti_load_tiles(As, Bs, A + k0, lda, B + k0 * ldb, ldb, BM, BN, BK, tid, false);
        barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            ti_a_frag a[TI_FM];
            int8 b[TN];
            /* a: row r of the block, this lane's share of k = kk..kk+15
             * (element index in units of ti_a_elem: 2 halves for SG 8, 1 for 16). */
#pragma unroll
            for (int i = 0; i < TI_FM; ++i) {
                __local const ti_a_elem *p =
                    Aa + ((wm0 + 8 * i) * BK + kk) / (16 / SG) + lane;
                const int rs = BK / (16 / SG);   /* row stride in ti_a_elem */
                a[i] = (ti_a_frag)(p[0 * rs], p[1 * rs], p[2 * rs], p[3 * rs],
                                   p[4 * rs], p[5 * rs], p[6 * rs], p[7 * rs]);
            }
            /* b: column wn0 + j*SG + lane, k pairs kk/2 + 0..7 (one int each). */
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                __local const int *q = Bs_bits + (kk / 2) * BN + wn0 + j * SG + lane;
                b[j] = (int8)(q[0 * BN], q[1 * BN], q[2 * BN], q[3 * BN],
                              q[4 * BN], q[5 * BN], q[6 * BN], q[7 * BN]);
            }
#pragma unroll
            for (int i = 0; i < TI_FM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = TI_MAD(a[i], b[j], acc[i][j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* Lane l holds column wn0 + j*SG + l of rows wm0 + 8i + 0..7: the lanes of a
     * subgroup store neighbouring addresses of one row at a time. */
#pragma unroll
    for (int i = 0; i < TI_FM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int c = wn0 + j * SG + lane;
            const float v[8] = { acc[i][j].s0, acc[i][j].s1, acc[i][j].s2, acc[i][j].s3,
                                 acc[i][j].s4, acc[i][j].s5, acc[i][j].s6, acc[i][j].s7 };
#pragma unroll
            for (int r8 = 0; r8 < 8; ++r8) {
                const int r = wm0 + 8 * i + r8;
                if (!edge || (r < rows_left && c < cols_left))
                    gemm_store1(C, ldc, bias, r, c, v[r8], alpha, beta);
            }
        }
    }
}
