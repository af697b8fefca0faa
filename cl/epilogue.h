/* Where a finished dot product meets C: every store of every kernel in cl/ goes through this
 * file, so that C's element type and the fused epilogue are written once.  Plain OpenCL C 1.2
 * (no cl_khr_fp16: 16-bit values live in ushort buffers; f16 is converted by the core
 * vload_half / vstore_half_rte, bf16 by hand).
 *
 * The operation of one element, with acc the kernel's sum over k:
 *     x = alpha * acc + beta * C      (C read in its own type; not read at all when beta == 0)
 *     x = x + bias                    (bias: one value per column of C, or per row, below)
 *     x = act(x)                      (none, relu, or gelu in its tanh form)
 *     C = x rounded once to C's type  (16-bit: to nearest, ties to even)
 *
 * Build defines (host/lib/gemm.h, gemm_build), each 0 by default, where the plain build is
 * exactly the float store the lessons always had:
 *   GEMM_CTYPE      0: C and the bias are float; 1: f16 bits; 2: bf16 bits (both ushort)
 *   GEMM_EPILOGUE   0 none, 1 bias, 2 relu, 3 bias_relu, 4 gelu, 5 bias_gelu (clgemm.h's
 *                   clgemm_epilogue): odd values add a bias, value / 2 names the activation
 *   GEMM_BIAS_ROWS  the bias runs along C's rows: a column-major call is computed as the
 *                   row-major C^T, whose rows are the caller's columns
 *   GEMM_TRANS_C    the kernel's element (r, c) is stored at C[c * ldc + r]: the host's
 *                   operand swap (SWAP=1) computes C^T = op(B)^T op(A)^T, so that a small M
 *                   becomes the kernel's N and a long N its M (the side a tile is widest on)
 *
 * A kernel takes `__global const gemm_c_t *bias, const int offBias` right after ldc (NULL and
 * 0 without a bias), moves it with GEMM_BIAS_MOVE to the corner of its tile, as it moves C,
 * and stores through gemm_store1, gemm_store2 or gemm_store4 with the tile's row and column
 * of the element; so does any pass that finishes a C from partial sums (split-K). */
#ifndef CLGEMM_EPILOGUE_H
#define CLGEMM_EPILOGUE_H

#ifndef GEMM_CTYPE
#define GEMM_CTYPE 0
#endif
#ifndef GEMM_EPILOGUE
#define GEMM_EPILOGUE 0
#endif
#ifndef GEMM_BIAS_ROWS
#define GEMM_BIAS_ROWS 0
#endif
#ifndef GEMM_TRANS_C
#define GEMM_TRANS_C 0
#endif
#define GEMM_HAS_BIAS (GEMM_EPILOGUE & 1)
#define GEMM_ACT (GEMM_EPILOGUE / 2) /* 0 none, 1 relu, 2 gelu */

#if GEMM_CTYPE == 0
typedef float gemm_c_t;
#else
typedef ushort gemm_c_t;
#endif

/* The bias of the tile whose corner is (row0, col0): nothing at all without one, so the plain
 * build never touches the (NULL) pointer. */
#if GEMM_HAS_BIAS
#define GEMM_BIAS_MOVE(row0, col0) (bias += offBias + (GEMM_BIAS_ROWS ? (row0) : (col0)))
#else
#define GEMM_BIAS_MOVE(row0, col0) ((void)0)
#endif

/* Where the kernel's element (r, c) of C lies, and the move of C to its tile's corner (every
 * kernel's C, offC and ldc).  The move adds one int offset to the pointer, as A and B move:
 * written as pointer + offC + r * ldc + c, NVIDIA's compiler keeps a 64-bit partial sum
 * alive through the K loop, and step 7's 128 x 128 tile then needs more than the 128
 * registers that let two groups share an SM (bench/results/2026-11-25_nvidia-h100/regs). */
#if GEMM_TRANS_C
#define GEMM_C_OFFSET(ldc, r, c) ((c) * (ldc) + (r))
#else
#define GEMM_C_OFFSET(ldc, r, c) ((r) * (ldc) + (c))
#endif
#define GEMM_C_AT(C, ldc, r, c) ((C) + GEMM_C_OFFSET(ldc, r, c))
#define GEMM_C_MOVE(row0, col0) (C += offC + GEMM_C_OFFSET(ldc, row0, col0))

/* ---- C's type: loads and stores of 1, 2 or 4 neighbours, as floats ---------------------
 * f16 goes through vload_half / vstore_half_rte, core OpenCL C 1.2 (no cl_khr_fp16: half is
 * only a pointer type here): one conversion instruction each on NVIDIA, rounding to nearest
 * even as the host does (host/lib/dtype.c); the aligned forms (vstorea_half2/4) let the
 * compiler write a pair or four in one store.  bf16 is the top half of a float, rounded by
 * hand. */

inline float gemm_bf16_to_float(const ushort h) { return as_float((uint)h << 16); }

inline ushort gemm_float_to_bf16(const float x)
{
    const uint u = as_uint(x);
    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN stays a quiet NaN */
        return (ushort)((u >> 16) | 0x0040u);
    return (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

#define GEMM_HALF(p) ((__global half *)(p))
#define GEMM_CONST_HALF(p) ((__global const half *)(p))

inline float gemm_c_get(__global const gemm_c_t *p)
{
#if GEMM_CTYPE == 0
    return *p;
#elif GEMM_CTYPE == 1
    return vload_half(0, GEMM_CONST_HALF(p));
#else
    return gemm_bf16_to_float(*p);
#endif
}

inline void gemm_c_put(__global gemm_c_t *p, const float x)
{
#if GEMM_CTYPE == 0
    *p = x;
#elif GEMM_CTYPE == 1
    vstore_half_rte(x, 0, GEMM_HALF(p));
#else
    *p = gemm_float_to_bf16(x);
#endif
}

#if GEMM_CTYPE != 0 && defined(CLGEMM_NV_SM80) && CLGEMM_NV_SM80
/* NVIDIA's OpenCL has no half type to convert with, and its vstore_half_rte and our bf16
 * rounding cost a dozen instructions a value in the store, which no main loop hides.  PTX
 * (sm_80 on) rounds a pair to nearest even in one cvt: the same bits (tests/test_bitwise.c).
 * The host defines CLGEMM_NV_SM80 for every build on such a device (host/lib/program.h), so
 * the SIMT steps get it too: with C rounded in C, step 7's 128 x 128 tile ran 3.6% (bf16) and
 * 2.4% (f16) slower than with an fp32 C; with the cvt, as fast (bench/results/
 * 2026-11-25_nvidia-h100/probes/probe53.txt).  The first source goes to the upper half, the
 * higher address. */
inline uint gemm_c_pair(const float2 x)
{
    uint r;
#if GEMM_CTYPE == 1
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(x.y), "f"(x.x));
#else
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(x.y), "f"(x.x));
#endif
    return r;
}
#define GEMM_C_PAIR 1
#endif

/* Two neighbours v (a float2 variable) at p in address space `space`, in C's type: 8 bytes of
 * float or 4 of 16-bit values, aligned to that.  One conversion for C in global memory and
 * for a block of C staged in local memory (mma/tma_store_tensor.h). */
#if GEMM_CTYPE == 0
#define GEMM_C_PUT2_IN(space, p, v) (*(space float2 *)(p) = (v))
#elif defined(GEMM_C_PAIR)
#define GEMM_C_PUT2_IN(space, p, v) (*(space uint *)(p) = gemm_c_pair(v))
#elif GEMM_CTYPE == 1
#define GEMM_C_PUT2_IN(space, p, v) vstorea_half2_rte((v), 0, (space half *)(p))
#else
#define GEMM_C_PUT2_IN(space, p, v)                                                          \
    (*(space ushort2 *)(p) = (ushort2)(gemm_float_to_bf16((v).x), gemm_float_to_bf16((v).y)))
#endif

inline void gemm_c_put2(__global gemm_c_t *p, const float2 x)
{
    GEMM_C_PUT2_IN(__global, p, x);
}

/* Four neighbours at p: 16 bytes of float or 8 of 16-bit values, aligned to that. */
inline float4 gemm_c_get4(__global const gemm_c_t *p)
{
#if GEMM_CTYPE == 0
    return *(__global const float4 *)p;
#elif GEMM_CTYPE == 1
    return vloada_half4(0, GEMM_CONST_HALF(p));
#else
    const ushort4 h = *(__global const ushort4 *)p;
    return (float4)(gemm_bf16_to_float(h.x), gemm_bf16_to_float(h.y), gemm_bf16_to_float(h.z),
                    gemm_bf16_to_float(h.w));
#endif
}

inline void gemm_c_put4(__global gemm_c_t *p, const float4 x)
{
#if GEMM_CTYPE == 0
    *(__global float4 *)p = x;
#elif defined(GEMM_C_PAIR)
    *(__global uint2 *)p = (uint2)(gemm_c_pair(x.xy), gemm_c_pair(x.zw));
#elif GEMM_CTYPE == 1
    vstorea_half4_rte(x, 0, GEMM_HALF(p));
#else
    *(__global ushort4 *)p = (ushort4)(gemm_float_to_bf16(x.x), gemm_float_to_bf16(x.y),
                                       gemm_float_to_bf16(x.z), gemm_float_to_bf16(x.w));
#endif
}

/* Four neighbouring bias values (any alignment: the bias has its own offset). */
inline float4 gemm_bias_get4(__global const gemm_c_t *b)
{
#if GEMM_CTYPE == 0
    return vload4(0, b);
#elif GEMM_CTYPE == 1
    return vload_half4(0, GEMM_CONST_HALF(b));
#else
    const ushort4 h = vload4(0, b);
    return (float4)(gemm_bf16_to_float(h.x), gemm_bf16_to_float(h.y), gemm_bf16_to_float(h.z),
                    gemm_bf16_to_float(h.w));
#endif
}

/* A tile's stores written out twice: once for beta == 0 (C is not read) and once for the
 * rest.  Inside each copy every element's test `beta == 0.0f` is a constant, so a fully
 * unrolled store loop is one straight run of code that the compiler schedules as a whole.
 * With the test left in each element, NVIDIA's compiler branched around every C read, and
 * each element's arithmetic (GELU's exp and division above all) waited behind the branch of
 * the one before, so that a fused GELU cost several times what it costs written this way
 * (bench/results/2026-11-24_nvidia-h100/gelu/).  The first copy's beta is +0, as the test
 * treats a -0 beta (C unread).  One argument: NVIDIA's OpenCL refuses variadic macros. */
#define GEMM_FOR_BETA(run)                                                                   \
    do {                                                                                     \
        if (beta == 0.0f) {                                                                  \
            const float beta = 0.0f;                                                         \
            run;                                                                             \
        } else {                                                                             \
            run;                                                                             \
        }                                                                                    \
    } while (0)

/* ---- the epilogue ---------------------------------------------------------------------- */

/* ReLU keeps a NaN (x < 0 is false for it): a NaN read from outside an operand's window must
 * reach C and fail the check, not vanish into a zero.  GELU's tanh form,
 * 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), is evaluated as the equal
 * x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3))): one power and one reciprocal, no branch
 * (a tanh has both ranges' code), so the unrolled stores interleave.  The power's argument is
 * x (c0 + c1 x^2), the constants scaled by log2(e) for a power of 2: two multiplies and a
 * fused multiply-add.  Both functions are the native forms, right at both ends
 * (x * 1/inf = -0, x * 1/1 = x) and measured within 0.18 * 2^-20 |x| of the exact value
 * over every float (docs/precision.md). */
#define GEMM_GELU_C0 (-2.3022082f)  /* -2 sqrt(2/pi) log2(e) */
#define GEMM_GELU_C1 (-0.10294324f) /* that times 0.044715 */

/* The power of 2 and the reciprocal GELU takes.  On NVIDIA a fused GELU's time is its two
 * special-function (MUFU) instructions and the instructions around them: a step 10 tile's
 * epilogue overlaps no tensor work.  native_exp2 and native_recip become ex2.approx.f32 and
 * div.approx.f32, whose denormal handling adds instructions per value; the .ftz forms are the
 * bare operations.  At bf16 4096^3 with an fp32 C that took bias_gelu from +3.5% to +2.7% over
 * the plain GEMM, same accuracy (probe151 in bench/results/2026-11-27_nvidia-h100/).
 * Flushing changes nothing here: 1 + 2^z is never denormal, a denormal power beside 1 is lost
 * in the sum either way, and a reciprocal of d > 2^126 only makes a GELU of magnitude below
 * 2^-120 |x| a zero. */
#if defined(CLGEMM_NV_SM80) && CLGEMM_NV_SM80
inline float gemm_gelu_exp2(const float z)
{
    float e;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(z));
    return e;
}
inline float gemm_gelu_recip(const float d)
{
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d));
    return r;
}
#else
#define gemm_gelu_exp2 native_exp2
#define gemm_gelu_recip native_recip
#endif

inline float gemm_gelu(const float x)
{
    const float z = x * fma(x * x, GEMM_GELU_C1, GEMM_GELU_C0);
    return x * gemm_gelu_recip(1.0f + gemm_gelu_exp2(z));
}

inline float gemm_act(const float x)
{
#if GEMM_ACT == 1
    return x < 0.0f ? 0.0f : x;
#elif GEMM_ACT == 2
    return gemm_gelu(x);
#else
    return x;
#endif
}

inline float4 gemm_act4(const float4 x)
{
#if GEMM_ACT == 1
    return select(x, (float4)(0.0f), x < 0.0f);
#elif GEMM_ACT == 2
    return (float4)(gemm_gelu(x.x), gemm_gelu(x.y), gemm_gelu(x.z), gemm_gelu(x.w));
#else
    return x;
#endif
}

/* The bias of element (r, c) of the tile (bias already at the tile's corner). */
inline float gemm_bias1(__global const gemm_c_t *bias, const int r, const int c)
{
#if GEMM_HAS_BIAS
    return gemm_c_get(bias + (GEMM_BIAS_ROWS ? r : c));
#else
    return 0.0f;
#endif
}

/* One element: the whole operation, from the sum to the value to store at p (unrounded). */
inline float gemm_finish1(const float acc, const float alpha, const float beta,
                          __global const gemm_c_t *p, const float b)
{
    float x = beta == 0.0f ? alpha * acc : alpha * acc + beta * gemm_c_get(p);
#if GEMM_HAS_BIAS
    x += b;
#endif
    return gemm_act(x);
}

/* Element (r, c) of the tile whose corner C points at. */
inline void gemm_store1(__global gemm_c_t *C, const int ldc, __global const gemm_c_t *bias,
                        const int r, const int c, const float acc, const float alpha,
                        const float beta)
{
    __global gemm_c_t *p = GEMM_C_AT(C, ldc, r, c);
    gemm_c_put(p, gemm_finish1(acc, alpha, beta, p, gemm_bias1(bias, r, c)));
}

/* Two neighbouring results of one row, (r, c) and (r, c+1) with c even, as the matrix units
 * of steps 8 to 10 hand them out: one 2-element store inside the matrix (offC and ldc even),
 * element-wise guarded stores at its edges.  A transposed C has them ldc apart: two stores. */
inline void gemm_store2(__global gemm_c_t *C, const int ldc, __global const gemm_c_t *bias,
                        const int r, const int c, const float x, const float y,
                        const float alpha, const float beta, const int rows_left,
                        const int cols_left, const bool guarded)
{
#if GEMM_TRANS_C
    if (!guarded || (r < rows_left && c < cols_left))
        gemm_store1(C, ldc, bias, r, c, x, alpha, beta);
    if (!guarded || (r < rows_left && c + 1 < cols_left))
        gemm_store1(C, ldc, bias, r, c + 1, y, alpha, beta);
#else
    __global gemm_c_t *p = C + r * ldc + c;
    if (!guarded) {
        gemm_c_put2(p, (float2)(gemm_finish1(x, alpha, beta, p, gemm_bias1(bias, r, c)),
                                gemm_finish1(y, alpha, beta, p + 1, gemm_bias1(bias, r, c + 1))));
    } else if (r < rows_left) {
        if (c < cols_left)
            gemm_c_put(p, gemm_finish1(x, alpha, beta, p, gemm_bias1(bias, r, c)));
        if (c + 1 < cols_left)
            gemm_c_put(p + 1, gemm_finish1(y, alpha, beta, p + 1, gemm_bias1(bias, r, c + 1)));
    }
#endif
}

/* Two results that lie next to each other in memory: (r, c) and (r, c+1), or with a
 * transposed C (r, c) and (r+1, c); r (c) even.  One 2-element store inside the matrix (offC
 * and ldc even), element-wise guarded stores at its edges.  Step 10's staged stores. */
inline void gemm_store2_along(__global gemm_c_t *C, const int ldc, __global const gemm_c_t *bias,
                              const int r, const int c, const float x, const float y,
                              const float alpha, const float beta, const int rows_left,
                              const int cols_left, const bool guarded)
{
#if GEMM_TRANS_C
    __global gemm_c_t *p = C + c * ldc + r;
    if (!guarded) {
        gemm_c_put2(p, (float2)(gemm_finish1(x, alpha, beta, p, gemm_bias1(bias, r, c)),
                                gemm_finish1(y, alpha, beta, p + 1, gemm_bias1(bias, r + 1, c))));
    } else if (c < cols_left) {
        if (r < rows_left)
            gemm_c_put(p, gemm_finish1(x, alpha, beta, p, gemm_bias1(bias, r, c)));
        if (r + 1 < rows_left)
            gemm_c_put(p + 1, gemm_finish1(y, alpha, beta, p + 1, gemm_bias1(bias, r + 1, c)));
    }
#else
    gemm_store2(C, ldc, bias, r, c, x, y, alpha, beta, rows_left, cols_left, guarded);
#endif
}

/* Four neighbouring results of one row, (r, c .. c+3), for the vectorised steps 6 and 7: one
 * 4-element store (offC and ldc multiples of 4), the arithmetic on float4 throughout; on edge
 * tiles only the first `valid` belong to C.  The whole-vector case comes first and returns:
 * with the element-wise case first, NVIDIA's compiler gave step 7's 128 x 128 tile 136
 * registers instead of 127, one group per SM instead of two (bench/results/
 * 2026-11-25_nvidia-h100/regs, probe42). */
inline void gemm_store4(__global gemm_c_t *C, const int ldc, __global const gemm_c_t *bias,
                        const int r, const int c, const float4 acc, const float alpha,
                        const float beta, const int valid, const bool guarded)
{
    if (!GEMM_TRANS_C && (!guarded || valid >= 4)) {
        __global gemm_c_t *p = C + r * ldc + c;
        float4 x = beta == 0.0f ? alpha * acc : alpha * acc + beta * gemm_c_get4(p);
#if GEMM_HAS_BIAS && GEMM_BIAS_ROWS
        x += gemm_c_get(bias + r);
#elif GEMM_HAS_BIAS
        x += gemm_bias_get4(bias + c);
#endif
        gemm_c_put4(p, gemm_act4(x));
        return;
    }
    /* a transposed C (four stores ldc apart), or an edge that cuts the four */
    if (valid > 0) gemm_store1(C, ldc, bias, r, c + 0, acc.x, alpha, beta);
    if (valid > 1) gemm_store1(C, ldc, bias, r, c + 1, acc.y, alpha, beta);
    if (valid > 2) gemm_store1(C, ldc, bias, r, c + 2, acc.z, alpha, beta);
    if (valid > 3) gemm_store1(C, ldc, bias, r, c + 3, acc.w, alpha, beta);
}

#endif
