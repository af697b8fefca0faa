/* The pre-pass of step 10's TF32 path (cl/10_wgmma_tma.cl with DTYPE 0): fp32 operands
 * rewritten once, rounded to tf32, in the layout TF32 wgmma reads from local memory.
 *
 * Why: TF32 wgmma reads both operands from local memory K-major only (the transpose
 * immediates exist for 16-bit types alone), and a TMA copy cannot transpose.  A (M x K,
 * row-major) is K-major as it lies; B (K x N) is not.  So wgmma_tma_pack_bt writes B^T (N x K)
 * into a scratch buffer, and the main kernel copies both operands by TMA into the same
 * swizzle and reads both through descriptors.  Rounding is done on the way, to nearest
 * (tf32_round, PTX cvt.rna semantics): the tensor core would only truncate what it reads.
 * wgmma_tma_round_a does the same for A (PACKA = 1); without it the tensor core truncates A.
 *
 * With SPLIT = 1 (tf32x3) each output also holds the residuals lo = tf32(x - hi) of its
 * values, hi = tf32(x), in the rows below them: rows N .. 2N - 1 of B^T, M .. 2M - 1 of A;
 * except where the GEMM splits B in local memory (tf32x3 with PACKB 2): then `exact` is 1
 * and B^T is B's exact transpose or copy, the values that split needs.
 *
 * Both kernels take (rows, cols, source, its offset, its ld, destination, its ld, the
 * source's and the destination's problem strides, exact) in the order of their own loops,
 * and run a strided batch with the problem in dimension 2 of the NDRange.  They read the
 * source at any offset and leading dimension (float4 loads where both are multiples of 4,
 * single values otherwise), so that no operand needs a layout pass first; the destination's
 * ld must be a multiple of 4 (the host rounds K up to 4 values, 16 bytes, as the tensor maps
 * need).  Needs SPLIT defined. */
#ifndef CLGEMM_TF32_PACK_H
#define CLGEMM_TF32_PACK_H

#include "mma/tf32.h"

/* Four values of one row at dst: a float4 store inside the matrix, else the first `left`
 * of them (none where the row is outside). */
inline void tf32_pack_store4(__global float *dst, const float4 v, const bool inside,
                             const bool row_in, const int left)
{
    if (inside) {
        *(__global float4 *)dst = v;
    } else if (row_in) {
        if (left > 0)
            dst[0] = v.x;
        if (left > 1)
            dst[1] = v.y;
        if (left > 2)
            dst[2] = v.z;
        if (left > 3)
            dst[3] = v.w;
    }
}

/* Bt (N x K, ldt values between rows) = B^T rounded to tf32, the 64 x 64 tile (g0, g1) of it.
 * Groups of 16 x 16 work-items (tx, ty) move 64 x 64 tiles through local memory so that both
 * the reads (along B's rows) and the writes (along Bt's rows) are coalesced 16-byte accesses;
 * the extra column spreads the transposed reads of the tile over the banks.  Interior tiles
 * use float4s. */
inline void tf32_pack_transpose(const int K, const int N, __global const float *restrict B,
                                const int offB, const int ldb, __global float *restrict Bt,
                                const int ldt, const int exact, const int g0, const int g1,
                                const int tx, const int ty, __local float (*tile)[65])
{
    const int n0 = g0 * 64, k0 = g1 * 64;
    const bool inside = n0 + 64 <= N && k0 + 64 <= K, vec = ((offB | ldb) & 3) == 0;
    for (int r = ty; r < 64; r += 16) {
        const int k = k0 + r, n = n0 + 4 * tx;
        __global const float *src = B + offB + (size_t)k * ldb + n;
        float4 v = (float4)(0.0f);
        if (inside && vec) {
            v = *(__global const float4 *)src;
        } else if (k < K) {
            v.x = n < N ? src[0] : 0.0f;
            v.y = n + 1 < N ? src[1] : 0.0f;
            v.z = n + 2 < N ? src[2] : 0.0f;
            v.w = n + 3 < N ? src[3] : 0.0f;
        }
        tile[r][4 * tx] = v.x;
        tile[r][4 * tx + 1] = v.y;
        tile[r][4 * tx + 2] = v.z;
        tile[r][4 * tx + 3] = v.w;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = ty; r < 64; r += 16) {
        const int n = n0 + r, k = k0 + 4 * tx;
        const float4 x = (float4)(tile[4 * tx][r], tile[4 * tx + 1][r], tile[4 * tx + 2][r],
                                  tile[4 * tx + 3][r]);
        const float4 hi = exact ? x : tf32_round4(x);
        tf32_pack_store4(Bt + (size_t)n * ldt + k, hi, inside, n < N, K - k);
#if SPLIT /* the residuals, N rows further down */
        if (!exact)
            tf32_pack_store4(Bt + (size_t)(N + n) * ldt + k, tf32_lo4(x, hi), inside, n < N,
                             K - k);
#endif
    }
}

/* Ar (M x K, ldr values between rows) = A rounded to tf32: the 4 values at row g1 * 8 + l1,
 * column (g0 * 32 + l0) * 4 (float4s where all four lie inside), for groups of 32 x 8
 * work-items (l0, l1). */
inline void tf32_pack_round(const int M, const int K, __global const float *restrict A,
                            const int offA, const int lda, __global float *restrict Ar,
                            const int ldr, const int exact, const int g0, const int g1,
                            const int l0, const int l1)
{
    const int k = (g0 * 32 + l0) * 4, m = g1 * 8 + l1;
    if (m >= M || k >= K)
        return;
    __global const float *src = A + offA + (size_t)m * lda + k;
    __global float *dst = Ar + (size_t)m * ldr + k;
    const bool inside = k + 4 <= K;
    float4 x;
    if (inside && ((offA | lda) & 3) == 0) {
        x = *(__global const float4 *)src;
    } else {
        x.x = src[0];
        x.y = k + 1 < K ? src[1] : 0.0f;
        x.z = k + 2 < K ? src[2] : 0.0f;
        x.w = k + 3 < K ? src[3] : 0.0f;
    }
    const float4 hi = exact ? x : tf32_round4(x);
    tf32_pack_store4(dst, hi, inside, true, K - k);
#if SPLIT /* the residuals, M rows further down */
    if (!exact)
        tf32_pack_store4(dst + (size_t)M * ldr, tf32_lo4(x, hi), inside, true, K - k);
#endif
}

/* The transposing pass as a kernel of its own.
 * Launch: local (16, 16), global (16 * ceil(N / 64), 16 * ceil(K / 64)[, problems]). */
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void wgmma_tma_pack_bt(const int K, const int N, __global const float *restrict B,
                       const int offB, const int ldb, __global float *restrict Bt, const int ldt,
                       const int strideB, const int strideT, const int exact)
{
    __local float tile[64][65];
    B += get_group_id(2) * (size_t)strideB; /* a batch's problem (0 in a 2-D launch) */
    Bt += get_group_id(2) * (size_t)strideT;
    tf32_pack_transpose(K, N, B, offB, ldb, Bt, ldt, exact, get_group_id(0), get_group_id(1),
                        get_local_id(0), get_local_id(1), tile);
}

/* The rounding copy as a kernel of its own.
 * Launch: local (32, 8), global (32 * ceil(K / 128), 8 * ceil(M / 8)[, problems]). */
__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void wgmma_tma_round_a(const int M, const int K, __global const float *restrict A,
                       const int offA, const int lda, __global float *restrict Ar, const int ldr,
                       const int strideA, const int strideR, const int exact)
{
    A += get_group_id(2) * (size_t)strideA;
    Ar += get_group_id(2) * (size_t)strideR;
    tf32_pack_round(M, K, A, offA, lda, Ar, ldr, exact, get_group_id(0), get_group_id(1),
                    get_local_id(0), get_local_id(1));
}

/* Both operands' passes in one launch, where a call of one problem needs both (a tight
 * leading dimension, PACKA=1 with B stored K x N, ...).  Why: on NVIDIA's OpenCL each kernel
 * of a call adds its own start and the gap before it, microseconds that a pass of a few MiB
 * does not otherwise cost.  Groups 0 .. groups0 - 1 run pass 0 (A's), the rest pass 1 (B's);
 * each pass is a transpose (t = 1: tf32_pack_transpose's tiles, gx of them along its
 * columns) or a rounding copy (t = 0: tf32_pack_round's groups), the group's work-items laid
 * out as that pass's own kernel has them, so the values are those kernels', bit for bit.
 * Launch: local 256, global 256 * (groups0 + the groups of pass 1). */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void wgmma_tma_pack_two(const int rows0, const int cols0, __global const float *restrict src0,
                        const int off0, const int ld0, __global float *restrict dst0,
                        const int ldd0, const int t0, const int gx0, const int groups0,
                        const int rows1, const int cols1, __global const float *restrict src1,
                        const int off1, const int ld1, __global float *restrict dst1,
                        const int ldd1, const int t1, const int gx1, const int exact1)
{
    __local float tile[64][65];
    const bool second = (int)get_group_id(0) >= groups0;
    const int g = (int)get_group_id(0) - (second ? groups0 : 0), gx = second ? gx1 : gx0;
    const int l = get_local_id(0);
    const int rows = second ? rows1 : rows0, cols = second ? cols1 : cols0;
    __global const float *src = second ? src1 : src0;
    __global float *dst = second ? dst1 : dst0;
    const int off = second ? off1 : off0, ld = second ? ld1 : ld0, ldd = second ? ldd1 : ldd0;
    const int exact = second ? exact1 : 0;
    /* the same branch for every work-item of a group (the transpose has a barrier) */
    if (second ? t1 : t0)
        tf32_pack_transpose(rows, cols, src, off, ld, dst, ldd, exact, g % gx, g / gx, l % 16,
                            l / 16, tile);
    else
        tf32_pack_round(rows, cols, src, off, ld, dst, ldd, exact, g % gx, g / gx, l % 32,
                        l / 32);
}

#endif
