#include "common.h"

/* Step 8 (gemm_mma), AMD backend: MFMA on CDNA, WMMA on RDNA 3.
 *
 * CDNA GPUs (MI200 = gfx90a, MI300 = gfx942) have Matrix Core units that
 * execute MFMA instructions: a whole wavefront (64 lanes) multiplies two small
 * matrices and accumulates into a block held across the lanes' registers
 * (accumulation VGPRs).  clang exposes them as built-ins; this kernel uses the
 * fp32 one, so the result is true fp32 (no rounding of the inputs):
 *
 *     float16 __builtin_amdgcn_mfma_f32_32x32x2f32(float a, float b, float16 acc,
 *                                                  int cbsz, int abid, int blgp);
 *
 * D(32x32) = A(32x2) * B(2x32) + acc.  Lane l (0..63) supplies
 *   a = A(l % 32, l / 32)      one element of the 32 x 2 block of A,
 *   b = B(l / 32, l % 32)      one element of the 2 x 32 block of B,
 * and holds 16 results: component v is D(8*(v/4) + 4*(l/32) + v%4, l % 32).
 * One instruction does 2048 FMAs (32 per lane) from two scalar operands per
 * lane, where the vector ALUs need 32 FMA instructions and 32+ register reads;
 * on MI200 the peak fp32 matrix rate is twice the fp32 vector peak.
 *
 * RDNA 3 GPUs (gfx11, wave32) have WMMA instead, with no fp32 inputs; there we
 * round A and B to fp16 and accumulate in fp32:
 *
 *     float8 __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(half16 a, half16 b, float8 acc);
 *
 * D(16x16) = A(16x16) * B(16x16) + acc.  Lane l (0..31) supplies row l % 16 of
 * A and column l % 16 of B (all 16 k values; lanes 16..31 repeat lanes 0..15)
 * and holds component v = D(2v + l/16, l % 16).
 *
 * Work distribution: as in step 6 a work-group stages BK-deep slices of A and
 * B in local memory; each wavefront owns a WM x WN tile of the BM x BN block,
 * WM = 8*TM and WN = (WAVE/8)*TN, so that a work-item still owns TM*TN results
 * and the host's launch geometry (BN/TN, BM/TM) is unchanged.  Wavefronts are
 * consecutive runs of WAVE linear work-item ids (x fastest), as on every AMD
 * OpenCL implementation.
 *
 * Precision: fp32 on gfx90a/gfx942 (MFMA); f16 inputs on gfx11 (WMMA).
 *
 * 16-bit inputs (DTYPE = 1 f16, 2 bf16; --dtype f16 / bf16; gfx11 only so far): A and B
 * arrive as f16 or bf16 bit patterns (ushort buffers) and are staged as they are; DTYPE = 2
 * calls the bf16 WMMA (__builtin_amdgcn_wmma_f32_16x16x16_bf16_w32, short16 operands, the
 * same lane layout).
 *
 * Status: compile-tested only (clang-15 for gfx90a, gfx940 and gfx1100 in
 * tests/test_vendor_compile.sh, which checks that v_mfma / v_wmma appear in the
 * object code); no AMD GPU has run it yet.  The target is selected by the
 * compiler's predefined macros (__gfx90a__, __GFX11__, ...), which the AMD
 * OpenCL runtime sets from the device.
 */

#if defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__) || \
    defined(__gfx941__) || defined(__gfx942__)
#define TA_MFMA 1
#elif defined(__GFX11__)
#define TA_WMMA 1
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#else
#error "gemm_mma (AMD): needs an AMD target with matrix instructions (gfx908/gfx90a/gfx94x: MFMA, gfx11: WMMA)"
#endif

#if defined(__AMDGCN_WAVEFRONT_SIZE)
#define TA_WAVE __AMDGCN_WAVEFRONT_SIZE
#elif defined(TA_MFMA)
#define TA_WAVE 64
#else
#define TA_WAVE 32
#endif

#if defined(TA_MFMA) && TA_WAVE != 64
#error "gemm_mma (AMD): MFMA needs wave64"
#endif
#if defined(TA_WMMA) && TA_WAVE != 32
#error "gemm_mma (AMD): the WMMA path is written for wave32 (the gfx11 default)"
#endif

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 16
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif

#ifndef DTYPE
#define DTYPE 0 /* A and B: 0 fp32, 1 f16, 2 bf16 bit patterns (ushort) */
#endif
#if DTYPE != 0 && DTYPE != 1 && DTYPE != 2
#error "gemm_mma (AMD): DTYPE must be 0 (fp32), 1 (f16) or 2 (bf16)"
#endif
#if DTYPE && defined(TA_MFMA)
#error "gemm_mma (AMD): 16-bit inputs are wired for gfx11 (WMMA) only so far"
#endif
#if DTYPE
typedef ushort ta_in;      /* the kernel's A and B elements */
#else
typedef float ta_in;
#endif

#ifdef TA_MFMA
#define TA_BLK 32                 /* MFMA block: 32 x 32, k step 2 */
#define TA_KSTEP 2
#else
#define TA_BLK 16                 /* WMMA block: 16 x 16, k step 16 */
#define TA_KSTEP 16
#endif

#define TA_TX (BN / TN)
#define TA_TY (BM / TM)
#define TA_THREADS (TA_TX * TA_TY)
#define TA_WM (8 * TM)                      /* wavefront tile */
#define TA_WN ((TA_WAVE / 8) * TN)
#define TA_FM (TA_WM / TA_BLK)              /* matrix blocks per wavefront tile */
#define TA_FN (TA_WN / TA_BLK)
#define TA_WAVE_COLS (BN / TA_WN)

#if TA_WM % TA_BLK != 0 || TA_WN % TA_BLK != 0
#error "gemm_mma (AMD): 8*TM and (WAVE/8)*TN must be multiples of the block size (32 MFMA, 16 WMMA)"
#endif
#if BM % TA_WM != 0 || BN % TA_WN != 0
#error "gemm_mma (AMD): BM must be a multiple of 8*TM and BN of (WAVE/8)*TN"
#endif
#if BK % TA_KSTEP != 0 || BK % 4 != 0
#error "gemm_mma (AMD): BK must be a multiple of 4 and of the k step (2 MFMA, 16 WMMA)"
#endif
#if (BM * BK / 4) % TA_THREADS != 0 || (BK * BN / 4) % TA_THREADS != 0
#error "gemm_mma (AMD): BM*BK/4 and BK*BN/4 must be multiples of the work-group size"
#endif

/* Four consecutive floats at p (16-byte aligned); guarded, only the first
 * `valid` exist and the rest read as zero (see step 6). */
inline float4 ta_load4(__global const float *p, const int valid, const bool guarded)
{
    if (!guarded || valid >= 4)
        return *(__global const float4 *)p;
    return (float4)(valid > 0 ? p[0] : 0.0f,
                    valid > 1 ? p[1] : 0.0f,
                    valid > 2 ? p[2] : 0.0f,
                    0.0f);
}

#ifdef TA_MFMA
/* fp32 tiles, both indexed [k][m or n] so that the 32 lanes of a half-wave
 * read 32 consecutive floats:  As[k * TA_AS + m] = A(m, k), Bs[k * BN + n] = B(k, n).
 * As rows are padded so that the transposing stores spread over the banks. */
#define TA_AS (BM + 4)
#define TA_AS_SIZE (BK * TA_AS)
#define TA_BS_SIZE (BK * BN)
typedef float ta_elem;

inline void ta_load_tiles(__local float *As, __local float *Bs,
                          __global const float *A, const int lda,
                          __global const float *B, const int ldb,
                          const int rows_left, const int cols_left, const int k_left,
                          const int tid, const bool guarded)
{
#pragma unroll
    for (int i = 0; i < BM * BK / 4 / TA_THREADS; ++i) {
        const int e = tid + i * TA_THREADS;
        const int r = e / (BK / 4), k = (e % (BK / 4)) * 4;
        const float4 v = ta_load4(A + r * lda + k, r < rows_left ? k_left - k : 0, guarded);
        As[(k + 0) * TA_AS + r] = v.x;
        As[(k + 1) * TA_AS + r] = v.y;
        As[(k + 2) * TA_AS + r] = v.z;
        As[(k + 3) * TA_AS + r] = v.w;
    }
#pragma unroll
    for (int i = 0; i < BK * BN / 4 / TA_THREADS; ++i) {
        const int e = tid + i * TA_THREADS;
        const int k = e / (BN / 4), c = (e % (BN / 4)) * 4;
        vstore4(ta_load4(B + k * ldb + c, k < k_left ? cols_left - c : 0, guarded), 0,
                Bs + k * BN + c);
    }
}
#else
/* fp16 tiles with k contiguous, so that a lane's 16 k values are one 32-byte
 * read:  As[m * TA_KS + k] = A(m, k), Bs[n * TA_KS + k] = B(k, n).  Rows are
 * padded by 8 halves (16 bytes): aligned, and neighbouring rows shift banks. */
#define TA_KS (BK + 8)
#define TA_AS_SIZE (BM * TA_KS)
#define TA_BS_SIZE (BN * TA_KS)
typedef half ta_elem;

#if DTYPE
/* Four 16-bit values (8-byte aligned: offsets and lds are multiples of 8), stored as they
 * are (zero is 0x0000 in f16 and bf16 alike). */
inline ushort4 ta_load4h(__global const ushort *p, const int valid, const bool guarded)
{
    if (!guarded || valid >= 4)
        return vload4(0, p);
    return (ushort4)(valid > 0 ? p[0] : (ushort)0, valid > 1 ? p[1] : (ushort)0,
                     valid > 2 ? p[2] : (ushort)0, (ushort)0);
}
#define TA_VEC4 ushort4
#define TA_LOAD4(p, valid, guarded) ta_load4h((p), (valid), (guarded))
#define TA_STORE4(v, dst) vstore4((v), 0, (__local ushort *)(dst))
#define TA_STORE1(x, dst) (*(__local ushort *)(dst) = (x))
#else
/* fp32 inputs are rounded to fp16 on the way. */
#define TA_VEC4 float4
#define TA_LOAD4(p, valid, guarded) ta_load4((p), (valid), (guarded))
#define TA_STORE4(v, dst) vstore_half4_rte((v), 0, (dst))
#define TA_STORE1(x, dst) vstore_half_rte((x), 0, (dst))
#endif

inline void ta_load_tiles(__local half *As, __local half *Bs,
                          __global const ta_in *A, const int lda,
                          __global const ta_in *B, const int ldb,
                          const int rows_left, const int cols_left, const int k_left,
                          const int tid, const bool guarded)
{
#pragma unroll
    for (int i = 0; i < BM * BK / 4 / TA_THREADS; ++i) {
        const int e = tid + i * TA_THREADS;
        const int r = e / (BK / 4), k = (e % (BK / 4)) * 4;
        TA_STORE4(TA_LOAD4(A + r * lda + k, r < rows_left ? k_left - k : 0, guarded),
                  As + r * TA_KS + k);
    }
#pragma unroll
    for (int i = 0; i < BK * BN / 4 / TA_THREADS; ++i) {
        const int e = tid + i * TA_THREADS;
        const int k = e / (BN / 4), c = (e % (BN / 4)) * 4;
        const TA_VEC4 v = TA_LOAD4(B + k * ldb + c, k < k_left ? cols_left - c : 0, guarded);
        TA_STORE1(v.x, Bs + (c + 0) * TA_KS + k);
        TA_STORE1(v.y, Bs + (c + 1) * TA_KS + k);
        TA_STORE1(v.z, Bs + (c + 2) * TA_KS + k);
        TA_STORE1(v.w, Bs + (c + 3) * TA_KS + k);
    }
}
#endif

__kernel __attribute__((reqd_work_group_size(TA_TX, TA_TY, 1)))
void gemm_mma(const int M, const int N, const int K, const float alpha,
              __global const ta_in *restrict A, const int offA, const int lda,
              __global const ta_in *restrict B, const int offB, const int ldb,
              const float beta,
              __global gemm_c_t *restrict C, const int offC, const int ldc,
              __global const gemm_c_t *restrict bias, const int offBias,
              const int strideA, const int strideB, const int strideC)
{
    GEMM_BATCH_ENTRY(A, B, C);
    /* float4 storage keeps both tiles 16-byte aligned whatever their element type. */
    __local float4 As4[(TA_AS_SIZE * sizeof(ta_elem) + 15) / 16];
    __local float4 Bs4[(TA_BS_SIZE * sizeof(ta_elem) + 15) / 16];
    __local ta_elem *As = (__local ta_elem *)As4;
    __local ta_elem *Bs = (__local ta_elem *)Bs4;

    const int tid = get_local_id(1) * TA_TX + get_local_id(0);
    const int lane = tid % TA_WAVE, wave = tid / TA_WAVE;
    const int wm0 = (wave / TA_WAVE_COLS) * TA_WM;   /* the wavefront tile's corner */
    const int wn0 = (wave % TA_WAVE_COLS) * TA_WN;

    const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
    const int rows_left = M - row0, cols_left = N - col0;
    A += offA + row0 * lda;
    B += offB + col0;
    GEMM_C_MOVE(row0, col0);
    GEMM_BIAS_MOVE(row0, col0);
    const bool edge = rows_left < BM || cols_left < BN;

#ifdef TA_MFMA
    float16 acc[TA_FM][TA_FN];
#pragma unroll
    for (int i = 0; i < TA_FM; ++i)
#pragma unroll
        for (int j = 0; j < TA_FN; ++j)
            acc[i][j] = (float16)(0.0f);
#else
    float8 acc[TA_FM][TA_FN];
#pragma unroll
    for (int i = 0; i < TA_FM; ++i)
#pragma unroll
        for (int j = 0; j < TA_FN; ++j)
            acc[i][j] = (float8)(0.0f);
#endif

    for (int k0 = 0; k0 < K; k0 += BK) {
        if (edge || K - k0 < BK)
            ta_load_tiles(As, Bs, A + k0, lda, B + k0 * ldb, ldb,
                          rows_left, cols_left, K - k0, tid, true);
        else
            ta_load_tiles(As, Bs, A + k0, lda, B + k0 * ldb, ldb, BM, BN, BK, tid, false);
        barrier(CLK_LOCAL_MEM_FENCE);

#ifdef TA_MFMA
        /* Lanes 0..31 take k = kk, lanes 32..63 k = kk+1; lane % 32 picks the
         * row of A / column of B inside the 32-wide block. */
        const int lk = lane / 32, li = lane % 32;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 2) {
            float a[TA_FM], b[TA_FN];
#pragma unroll
            for (int i = 0; i < TA_FM; ++i)
                a[i] = As[(kk + lk) * TA_AS + wm0 + 32 * i + li];
#pragma unroll
            for (int j = 0; j < TA_FN; ++j)
                b[j] = Bs[(kk + lk) * BN + wn0 + 32 * j + li];
#pragma unroll
            for (int i = 0; i < TA_FM; ++i)
#pragma unroll
                for (int j = 0; j < TA_FN; ++j)
                    acc[i][j] = __builtin_amdgcn_mfma_f32_32x32x2f32(a[i], b[j], acc[i][j],
                                                                     0, 0, 0);
        }
#else
        /* Lane % 16 picks the row of A / column of B; both half-waves pass the
         * same data, as WMMA w32 requires. */
        const int li = lane % 16;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
#if DTYPE == 2   /* bf16 bits, read as short16 */
            short16 a[TA_FM], b[TA_FN];
#define TA_FRAG(p) as_short16(vload16(0, (__local const ushort *)(p)))
#define TA_WMMA __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32
#else
            half16 a[TA_FM], b[TA_FN];
#define TA_FRAG(p) vload16(0, (p))
#define TA_WMMA __builtin_amdgcn_wmma_f32_16x16x16_f16_w32
#endif
#pragma unroll
            for (int i = 0; i < TA_FM; ++i)
                a[i] = TA_FRAG(As + (wm0 + 16 * i + li) * TA_KS + kk);
#pragma unroll
            for (int j = 0; j < TA_FN; ++j)
                b[j] = TA_FRAG(Bs + (wn0 + 16 * j + li) * TA_KS + kk);
#pragma unroll
            for (int i = 0; i < TA_FM; ++i)
#pragma unroll
                for (int j = 0; j < TA_FN; ++j)
                    acc[i][j] = TA_WMMA(a[i], b[j], acc[i][j]);
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* Each component goes to (row, column) as the fragment layout above says;
     * for a fixed component, consecutive lanes hold consecutive columns. */
#pragma unroll
    for (int i = 0; i < TA_FM; ++i) {
#pragma unroll
        for (int j = 0; j < TA_FN; ++j) {
#ifdef TA_MFMA
            const float16 t = acc[i][j];
            const float v[16] = { t.s0, t.s1, t.s2, t.s3, t.s4, t.s5, t.s6, t.s7,
                                  t.s8, t.s9, t.sa, t.sb, t.sc, t.sd, t.se, t.sf };
            const int c = wn0 + 32 * j + lane % 32;
#pragma unroll
            for (int q = 0; q < 16; ++q) {
                const int r = wm0 + 32 * i + 8 * (q / 4) + 4 * (lane / 32) + q % 4;
#else
            const float8 t = acc[i][j];
            const float v[8] = { t.s0, t.s1, t.s2, t.s3, t.s4, t.s5, t.s6, t.s7 };
            const int c = wn0 + 16 * j + lane % 16;
#pragma unroll
            for (int q = 0; q < 8; ++q) {
                const int r = wm0 + 16 * i + 2 * q + lane / 16;
#endif
                if (!edge || (r < rows_left && c < cols_left))
                    gemm_store1(C, ldc, bias, r, c, v[q], alpha, beta);
            }
        }
    }
}
