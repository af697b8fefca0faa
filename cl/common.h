/* Shared by every kernel in cl/.  The host resolves `#include "common.h"` itself
 * (the sources are embedded in the binary), so this file must stay plain OpenCL C 1.2.
 *
 * Layout contract (the host relies on it, see host/lib/enqueue.c):
 *   row-major A (M x K), B (K x N), C (M x N); element (r, c) of X lives at
 *   X[offX + r * ldX + c], once X points at its group's problem of a strided batch
 *   (GEMM_BATCH_ENTRY).  C = act(alpha * A * B + beta * C + bias), rounded once to C's
 *   type (epilogue.h); the plain build is C = alpha * A * B + beta * C.
 *   When beta == 0, C is written without being read (BLAS semantics), so an
 *   uninitialised C holding NaNs must not leak into the result.
 */
#ifndef CLGEMM_COMMON_H
#define CLGEMM_COMMON_H

/* What the host builds a kernel for besides its tile parameters (host/lib/gemm.h, gemm_build);
 * a kernel honours those its registry row declares and is never built with the others:
 *   GEMM_BATCHED    a strided batch in one launch (below)
 *   GEMM_TRANS_A    A is stored K x M: element (r, c) of the A the product reads lives at
 *                   A[offA + c * lda + r] (registry row's TRANS_A)
 *   GEMM_TRANS_B    B is stored N x K: (r, c) at B[offB + c * ldb + r] (TRANS_B), as the
 *                   weight of a PyTorch Linear, X W^T
 *   GEMM_CTYPE      element type of C and of the bias: 0 float, 1 f16, 2 bf16 (ushort bits)
 *   GEMM_EPILOGUE   0 none, 1 bias, 2 relu, 3 bias_relu, 4 gelu, 5 bias_gelu (clgemm.h)
 *   GEMM_BIAS_ROWS  the bias is indexed by C's row, not its column (a column-major call)
 *   GEMM_TRANS_C    C is stored transposed: (r, c) at C[offC + c * ldc + r] (SWAP=1)
 * The last four live in epilogue.h, with every store of C.  And step 10 alone:
 *   GEMM_KSPLIT     K's slices in one launch, dimension 2 naming the slice; the group that
 *                   finishes a block last sums it (mma/tma_ksplit.h)
 */
#ifndef GEMM_KSPLIT
#define GEMM_KSPLIT 0
#endif
#ifndef GEMM_BATCHED
#define GEMM_BATCHED 0
#endif
#ifndef GEMM_TRANS_A
#define GEMM_TRANS_A 0
#endif
#ifndef GEMM_TRANS_B
#define GEMM_TRANS_B 0
#endif
/* Strided batches: one launch runs every problem of a batch, dimension 2 of the NDRange
 * (its group id) naming the problem, strideA/B/C elements apart.  Each kernel opens with
 * this, so that everything after it sees one problem.  The host builds a kernel twice: with
 * GEMM_BATCHED=1 for batched launches, and without, where the entry is nothing at all and the
 * kernel is exactly the one-problem lesson (the pointer arithmetic costs registers that the
 * tightest kernels, step 7's 127, cannot spare).  It reads the kernel's strideA, strideB and
 * strideC arguments by name. */
#if GEMM_BATCHED
#define GEMM_BATCH_ENTRY(A, B, C)                                                             \
    do {                                                                                      \
        const size_t gemm_entry_ = get_group_id(2);                                           \
        (A) += gemm_entry_ * (size_t)strideA;                                                 \
        (B) += gemm_entry_ * (size_t)strideB;                                                 \
        (C) += gemm_entry_ * (size_t)strideC;                                                 \
    } while (0)
#else
#define GEMM_BATCH_ENTRY(A, B, C) do { } while (0)
#endif

#include "epilogue.h"

/* Steps 3 to 5 open the same way: this problem of the batch, then this group's BM x BN block
 * of C.  Declares row0 and col0 (the block's corner) and rows_left and cols_left (how much of
 * C lies from there on: below BM or BN only at the edges), and moves A, B, C and the bias to
 * the corner, so that rows and columns count from it afterwards. */
#define GEMM_GROUP_BLOCK(BM, BN)                                                           \
    GEMM_BATCH_ENTRY(A, B, C);                                                             \
    const int row0 = get_group_id(1) * (BM), col0 = get_group_id(0) * (BN);               \
    const int rows_left = M - row0, cols_left = N - col0;                                  \
    A += offA + row0 * lda;                                                                \
    B += offB + col0;                                                                      \
    GEMM_C_MOVE(row0, col0);                                                               \
    GEMM_BIAS_MOVE(row0, col0)

/* Steps 3 to 5 stage tiles the same way: copy a rows x cols block of a row-major matrix into
 * local memory, element e by work-item e % threads, so that neighbouring work-items read
 * neighbouring addresses.  rows, cols, threads and `guarded` are literals at every call
 * site, so once inlined the loop unrolls and the unguarded copy is bare loads; the guarded
 * one substitutes zero for whatever lies at or beyond (rows_left, cols_left). */
inline void tile_to_local(__local float *dst, __global const float *src, const int ld,
                          const int rows, const int cols, const int rows_left,
                          const int cols_left, const int tid, const int threads,
                          const bool guarded)
{
    for (int i = 0; i < rows * cols / threads; ++i) {
        const int e = tid + i * threads;
        const int r = e / cols, c = e % cols;
        dst[e] = (!guarded || (r < rows_left && c < cols_left)) ? src[r * ld + c] : 0.0f;
    }
}

#endif
