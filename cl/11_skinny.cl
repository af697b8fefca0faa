#include "common.h"
#include "skinny_ksplit.h"

/* Step 11: skinny products, a weight stream (small M, long K).
 *
 * What changes from the steps before, and why it is faster here.  Steps 3 to 10 tile C in
 * blocks of 64 to 256 rows and reuse every value of B across a block's rows.  With M = 1 or
 * 16 (a language model's decode or a small batch) there is almost nothing to reuse: each value
 * of B meets M values of A, so the product costs 2·M flops per value of B read, and the time is
 * the time to read B (the weight) once from memory.  A 128-row tile then computes mostly
 * zeros, and N / BN blocks (32 for N = 4096) leave most of a large GPU idle.  This kernel
 * is written for the bandwidth instead:
 *   1. Every value of B is read once, with 16-byte loads (float4, or 8 values of 16-bit data)
 *      that neighbouring work-items issue at neighbouring addresses, and UNROLL of them are
 *      in flight per work-item before the first is used.
 *   2. The K dimension is spread over KT work-items per column, so that even N = 4096 makes
 *      thousands of work-groups' worth of loads; each work-item keeps BM rows of partial sums
 *      in registers, and A (BM x K, small) comes from the cache, reused by every column the
 *      work-item owns.
 *   3. The KT partial sums of a column meet in local memory and are added in lane order
 *      0..KT-1: a fixed order, so a result is the same bit for bit at every run.
 *   4. At M up to 16, A itself costs: each work-item reads BM vectors of A per vector of B.
 *      With AL the group stages A in local memory, AL values of k at a time, and with few
 *      lanes per column (KT = 8) a warp's teams read the same bytes of it at once.
 *   5. Where N / BN groups cannot fill the device, K is split in the same launch: the group
 *      that finishes a block of C last adds the slices' sums in order (skinny_ksplit.h).
 * Arithmetic is fp32 on every element type: 16-bit values are widened exactly, products and
 * sums are fp32 FMAs.  That is more accurate than TF32 and costs nothing here, where the
 * arithmetic units wait for memory (docs/precision.md).
 *
 * Two ways to read B, one kernel (GEMM_TRANS_B, cl/common.h):
 *   NT, B stored N x K (a PyTorch Linear's weight, X W^T): a column of C is a row of storage.
 *      KT neighbouring work-items walk one row of B along k, 16 bytes each, so a warp reads
 *      KT·16 contiguous bytes; each work-item owns RN neighbouring rows (columns of C).
 *   NN, B stored K x N: a work-item owns one vector of VEC neighbouring columns and reads
 *      VEC rows of them per step (a VEC x VEC block of B: VEC loads, each against one vector
 *      of A); BN / VEC neighbouring work-items cover a row segment of BN values, and the
 *      KT groups of them take every KT-th block of VEC rows.
 * Both read A as M x K (row-major, K contiguous); a transposed A is packed by the library
 * first (it is small).
 *
 * Correct for every M, N, K >= 1: rows beyond M and (NT) columns beyond N read the last real
 * row or column (clamped addresses, no test in the loop; their sums are never stored), the
 * K % VEC values past the last whole vector are added singly by one work-item, and an NN
 * vector that crosses column N is loaded element by element.  Padding past K or N (NaN in the
 * tests) is never read.  M > BM runs more groups along dimension 1, each reading B again: the
 * library chooses this step only where M is small (docs/11_skinny.md).  Needs offA, lda, offB
 * and ldb to be multiples of VEC (the library packs other operands); C is stored element by
 * element with any offset and ldc.
 *
 * Its speed beside cuBLAS: docs/results.md, row "skinny".
 */

/* Parameters (all overridable with -D; the host derives BN from them, plan.c):
 *   DTYPE   element type of A and B: 0 fp32, 1 f16, 2 bf16 (ushort bit patterns)
 *   WG      work-items per group (dimension 0; dimension 1 is 1)
 *   KT      work-items sharing one column's K (a power of two is not required)
 *   RN      NT: columns of C per work-item (NN: always one vector of VEC columns)
 *   BM      rows of A and C per group (partial sums per column in registers)
 *   UNROLL  blocks of k whose loads of B are issued before the first is used
 *   AL      0: A is read through the cache; else it is staged in local memory, AL values
 *           of k (a multiple of KT * VEC) of all BM rows at a time, and read there
 * BN, the columns per group: NT WG·RN/KT, NN WG·VEC/KT.  The host's own parameters: SPLITK
 * (slices of K, summed in this launch: skinny_ksplit.h) and, on NVIDIA, MAXNREG (a register
 * cap: at 32 an SM holds four groups of 512, which the f16 N N kernel needs, docs/11_skinny.md). */
#ifndef DTYPE
#define DTYPE 0
#endif
#ifndef WG
#define WG 256
#endif
#ifndef KT
#define KT 32
#endif
#ifndef RN
#define RN 2
#endif
#ifndef BM
#define BM 1
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef AL
#define AL 0
#endif

/* ---- 16 bytes of A or B, widened to fp32 ----------------------------------------------- */
#if DTYPE == 0
#define VEC 4
typedef float sk_elem;
typedef float4 sk_raw;
typedef float4 sk_vec;
inline sk_vec sk_widen(const sk_raw v) { return v; }
inline float sk_scalar(const sk_elem x) { return x; }
#elif DTYPE == 1 || DTYPE == 2
#define VEC 8
typedef ushort sk_elem;
typedef ushort8 sk_raw;
typedef float8 sk_vec;
#if DTYPE == 1
/* f16: without cl_khr_fp16 a half can still be read through vload_half (core OpenCL). */
inline sk_vec sk_widen(const sk_raw v) { return vload_half8(0, (const __private half *)&v); }
inline float sk_scalar(const sk_elem x) { return vload_half(0, (const __private half *)&x); }
#else
/* bf16 is the upper half of an fp32: widening is a shift, exact. */
inline sk_vec sk_widen(const sk_raw v) { return as_float8(convert_uint8(v) << 16); }
inline float sk_scalar(const sk_elem x) { return as_float((uint)x << 16); }
#endif
#else
#error "gemm_skinny: DTYPE must be 0 (fp32), 1 (f16) or 2 (bf16)"
#endif

#if GEMM_TRANS_B
#define SK_OWN RN                  /* partial sums per row of A: the columns a work-item owns */
#define BN (WG * RN / KT)
#if (WG * RN) % KT != 0 || WG % KT != 0
#error "gemm_skinny (NT): KT must divide WG"
#endif
#else
#define SK_OWN VEC
#define BN (WG * VEC / KT)
#if (WG * VEC) % KT != 0 || WG % KT != 0
#error "gemm_skinny (NN): KT must divide WG"
#endif
#endif
#if BM < 1 || KT < 1 || RN < 1 || UNROLL < 1
#error "gemm_skinny: BM, KT, RN and UNROLL must be at least 1"
#endif
#define SK_CV (AL / VEC) /* AL: vectors of k per staged chunk of A */
#if AL < 0 || AL % VEC != 0 || SK_CV % KT != 0
#error "gemm_skinny: AL must be a multiple of KT * VEC"
#endif
#define SK_RED_LD (BN + 1) /* floats per lane's row of the reduction: odd, so no conflicts */

/* 16 bytes as they lie: loads are issued in this form, and widened only when used, so that
 * UNROLL blocks of 16-bit data in flight take half the registers. */
inline sk_raw sk_load(__global const sk_elem *p) { return *(__global const sk_raw *)p; }

/* The VEC values of a vector as an array, for loops over them. */
#if VEC == 8
#define SK_LANES(v) { (v).s0, (v).s1, (v).s2, (v).s3, (v).s4, (v).s5, (v).s6, (v).s7 }
#else
#define SK_LANES(v) { (v).s0, (v).s1, (v).s2, (v).s3 }
#endif

/* acc + a·b over the VEC lanes, as a chain of FMAs in lane order. */
inline float sk_dot(float acc, const sk_vec a, const sk_vec b)
{
    acc = fma(a.s0, b.s0, acc);
    acc = fma(a.s1, b.s1, acc);
    acc = fma(a.s2, b.s2, acc);
    acc = fma(a.s3, b.s3, acc);
#if VEC == 8
    acc = fma(a.s4, b.s4, acc);
    acc = fma(a.s5, b.s5, acc);
    acc = fma(a.s6, b.s6, acc);
    acc = fma(a.s7, b.s7, acc);
#endif
    return acc;
}

/* The first `valid` of VEC values at p (valid >= 1), zeros after them: a vector of B that
 * crosses column N (NN).  Nothing past them is touched. */
inline sk_vec sk_load_part(__global const sk_elem *p, const int valid)
{
    float v[VEC];
    for (int i = 0; i < VEC; ++i)
        v[i] = i < valid ? sk_scalar(p[i]) : 0.0f;
#if VEC == 8
    return vload8(0, v);
#else
    return vload4(0, v);
#endif
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void gemm_skinny(const int M, const int N, const int K, const float alpha,
                 __global const sk_elem *restrict A, const int offA, const int lda,
                 __global const sk_elem *restrict B, const int offB, const int ldb,
                 const float beta,
                 __global gemm_c_t *restrict C, const int offC, const int ldc,
                 __global const gemm_c_t *restrict bias, const int offBias,
                 const int strideA, const int strideB, const int strideC,
                 const int kslice, __global float *restrict partials, const int ldp,
                 __global int *restrict tile_counts)
{
    GEMM_BATCH_ENTRY(A, B, C);
    __local float red[KT * SK_RED_LD];
#if GEMM_KSPLIT
    /* Slice kpart of K, as if the call were that slice alone: Ks values of it from A and B
     * moved to its start (cl/skinny_ksplit.h). */
    __local int sk_last_[1];
    const int kpart = get_group_id(2), Ks = min(kslice, K - kpart * kslice);
    A += kpart * kslice;
    B += GEMM_TRANS_B ? (size_t)kpart * kslice : (size_t)kpart * kslice * ldb;
#define SK_PUT(r, c, v) SK_PUT_PART(r, c, v)
#else
    const int Ks = K; /* the K this group walks: all of it */
#define SK_PUT(r, c, v) gemm_store1(C, ldc, bias, r, c, v, alpha, beta)
#endif

    const int tid = get_local_id(0);
    /* Where M > BM, the groups of one block of columns (which read the same B) are numbered
     * next to each other, and the device starts groups in that order: the later ones find
     * B in the L2 instead of memory.  (Dimension 1 counts row blocks, 0 column blocks.) */
    const int nrow = get_num_groups(1);
    const int lin = get_group_id(0) + get_num_groups(0) * get_group_id(1);
    const int row0 = lin % nrow * BM, col0 = lin / nrow * BN;
    const int rows = min(M - row0, BM), cols = min(N - col0, BN);
    A += offA + row0 * lda;
    GEMM_C_MOVE(row0, col0);
    GEMM_BIAS_MOVE(row0, col0);
    const int kv = Ks / VEC; /* whole vectors of k */

    float acc[BM][SK_OWN];
#pragma unroll
    for (int m = 0; m < BM; ++m)
#pragma unroll
        for (int o = 0; o < SK_OWN; ++o)
            acc[m][o] = 0.0f;

    /* K in chunks of SK_CV vectors: with AL, each chunk of A (all BM rows) is first
     * staged in local memory by the whole group; without, one chunk is all of K and A comes
     * through the cache.  SK_CV is a multiple of KT, so lane l still takes the vectors
     * l, l + KT, ... in order: the same sums, bit for bit, either way. */
#if AL
    __local sk_raw a_loc[BM * SK_CV];
#define SK_STAGE_A()                                                                         \
    do {                                                                                     \
        barrier(CLK_LOCAL_MEM_FENCE);                                                        \
        for (int i_ = tid; i_ < BM * (kend - c0); i_ += WG) {                                \
            const int m_ = i_ / (kend - c0), j_ = i_ - m_ * (kend - c0);                     \
            a_loc[m_ * SK_CV + j_] = sk_load(A + min(m_, rows - 1) * lda + (c0 + j_) * VEC); \
        }                                                                                    \
        barrier(CLK_LOCAL_MEM_FENCE);                                                        \
    } while (0)
#define SK_A(m, k) a_loc[(m) * SK_CV + (k) - c0] /* 16 bytes of row m at vector k */
#define SK_A1(m, k) sk_scalar(((__local const sk_elem *)a_loc)[(m) * AL + (k) - c0 * VEC])
#else
#define SK_A(m, k) sk_load(A + min(m, rows - 1) * lda + (k) * VEC)
#define SK_A1(m, k) sk_scalar(A[min(m, rows - 1) * lda + (k)]) /* one value of row m at k */
#endif

#if GEMM_TRANS_B
    /* ---- NT: lane walks k along RN rows of B (columns of C), team * RN is the first ---- */
    const int lane = tid % KT, team = tid / KT;
    __global const sk_elem *b[RN];
#pragma unroll
    for (int r = 0; r < RN; ++r)
        b[r] = B + offB + min(col0 + team * RN + r, N - 1) * ldb;

#if AL
    for (int c0 = 0; c0 < kv; c0 += SK_CV) {
        const int kend = min(kv, c0 + SK_CV);
        SK_STAGE_A();
#else
    { /* all of K as one chunk, written as before AL: as a loop over chunks, NVIDIA's
       * compiler made M = 1 slower (bench/results/2026-11-25_nvidia-h100/probes/probe57) */
        const int c0 = 0, kend = kv;
#endif
        int kb = c0 + lane;
        for (; kb + (UNROLL - 1) * KT < kend; kb += UNROLL * KT) {
            sk_raw bv[UNROLL][RN];
#pragma unroll
            for (int u = 0; u < UNROLL; ++u)
#pragma unroll
                for (int r = 0; r < RN; ++r)
                    bv[u][r] = sk_load(b[r] + (kb + u * KT) * VEC);
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                sk_vec bw[RN];
#pragma unroll
                for (int r = 0; r < RN; ++r)
                    bw[r] = sk_widen(bv[u][r]);
#pragma unroll
                for (int m = 0; m < BM; ++m) {
                    const sk_vec a = sk_widen(SK_A(m, kb + u * KT));
#pragma unroll
                    for (int r = 0; r < RN; ++r)
                        acc[m][r] = sk_dot(acc[m][r], a, bw[r]);
                }
            }
        }
        for (; kb < kend; kb += KT) {
            sk_vec bw[RN];
#pragma unroll
            for (int r = 0; r < RN; ++r)
                bw[r] = sk_widen(sk_load(b[r] + kb * VEC));
#pragma unroll
            for (int m = 0; m < BM; ++m) {
                const sk_vec a = sk_widen(SK_A(m, kb));
#pragma unroll
                for (int r = 0; r < RN; ++r)
                    acc[m][r] = sk_dot(acc[m][r], a, bw[r]);
            }
        }
    }
    /* The last K % VEC values, by the lane whose turn the next vector would have been. */
    if (lane == kv % KT)
        for (int k = kv * VEC; k < Ks; ++k)
#pragma unroll
            for (int m = 0; m < BM; ++m) {
                const float a = sk_scalar(A[min(m, rows - 1) * lda + k]);
#pragma unroll
                for (int r = 0; r < RN; ++r)
                    acc[m][r] = fma(a, sk_scalar(b[r][k]), acc[m][r]);
            }
    const int col_first = team * RN; /* this work-item's first column in the group */
#else
    /* ---- NN: lane walks blocks of VEC rows of one vector of VEC columns ---------------- */
    const int lane = tid / (BN / VEC), cv = tid % (BN / VEC);
    const int col_first = cv * VEC;
    const int valid = cols - col_first; /* columns of this vector inside C (may be <= 0) */
    B += offB + col0 + col_first;

    /* One row of VEC columns (k = kb * VEC + j) against the BM values of A at that k: each
     * value of A is read once per row and meets VEC columns. */
#define SK_NN_ROW(row_vec, kb, j)                                                            \
    do {                                                                                     \
        const sk_vec row_ = (row_vec);                                                       \
        const float bj_[VEC] = SK_LANES(row_);                                               \
        _Pragma("unroll") for (int m = 0; m < BM; ++m)                                       \
        {                                                                                    \
            const float a_ = SK_A1(m, (kb) * VEC + (j));                                     \
            _Pragma("unroll") for (int c = 0; c < VEC; ++c) acc[m][c] =                      \
                fma(a_, bj_[c], acc[m][c]);                                                  \
        }                                                                                    \
    } while (0)

#if AL
    for (int c0 = 0; c0 < kv; c0 += SK_CV) {
        const int kend = min(kv, c0 + SK_CV);
        SK_STAGE_A();
#else
    { /* all of K as one chunk, as in NT */
        const int c0 = 0, kend = kv;
#endif
        if (valid >= VEC) {
            int kb = c0 + lane;
            for (; kb + (UNROLL - 1) * KT < kend; kb += UNROLL * KT) {
                sk_raw bv[UNROLL][VEC];
#pragma unroll
                for (int u = 0; u < UNROLL; ++u)
#pragma unroll
                    for (int j = 0; j < VEC; ++j)
                        bv[u][j] = sk_load(B + ((kb + u * KT) * VEC + j) * ldb);
#pragma unroll
                for (int u = 0; u < UNROLL; ++u)
#pragma unroll
                    for (int j = 0; j < VEC; ++j)
                        SK_NN_ROW(sk_widen(bv[u][j]), kb + u * KT, j);
            }
            for (; kb < kend; kb += KT)
#pragma unroll
                for (int j = 0; j < VEC; ++j)
                    SK_NN_ROW(sk_widen(sk_load(B + (kb * VEC + j) * ldb)), kb, j);
        } else if (valid > 0) {
            /* A vector crossing column N: the same sums, loaded element by element. */
            for (int kb = c0 + lane; kb < kend; kb += KT)
                for (int j = 0; j < VEC; ++j)
                    SK_NN_ROW(sk_load_part(B + (kb * VEC + j) * ldb, valid), kb, j);
        }
    }
    /* The last K % VEC rows of B, by the lane whose turn the next block would have been. */
    if (valid > 0 && lane == kv % KT)
        for (int k = kv * VEC; k < Ks; ++k)
#pragma unroll
            for (int c = 0; c < VEC; ++c) {
                const float bk = c < valid ? sk_scalar(B[k * ldb + c]) : 0.0f;
#pragma unroll
                for (int m = 0; m < BM; ++m)
                    acc[m][c] = fma(sk_scalar(A[min(m, rows - 1) * lda + k]), bk, acc[m][c]);
            }
#endif

    /* ---- the KT partial sums of each column, added in lane order ------------------------ */
    /* m is unrolled, so that the partial sums stay in registers, and the barriers are met by
     * every work-item unconditionally (a CPU implementation such as PoCL replicates the code
     * after a barrier under a branch, which grows with each one). */
#pragma unroll
    for (int m = 0; m < BM; ++m) {
#pragma unroll
        for (int o = 0; o < SK_OWN; ++o)
            red[lane * SK_RED_LD + col_first + o] = acc[m][o];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int c = tid; m < rows && c < cols; c += WG) {
            float sum = red[c];
            for (int l = 1; l < KT; ++l)
                sum += red[l * SK_RED_LD + c];
            SK_PUT(m, c, sum);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#if GEMM_KSPLIT
    SK_KSPLIT_FINISH();
#endif
}
