/* The layout pre-pass (cl/layout.cl): how an operand that a GEMM kernel cannot read where it
 * lies reaches it.  Every kernel reads row-major, untransposed operands whose offsets and
 * leading dimensions are multiples of its variant's ld_multiple.  A transposed operand, or
 * one misaligned for the kernel, is copied (transposed through local memory when needed)
 * into one of the plan's scratch buffers, offset 0 and rows padded to a multiple of 16
 * elements with zeros; a misaligned C is computed in such a buffer and copied back.  One
 * pass per packed operand, one more for C's copy-back (and one for C's copy-in when
 * beta != 0): the slow path, timed with the call. */
#ifndef CLGEMM_LAYOUT_H
#define CLGEMM_LAYOUT_H

#include <pthread.h>
#include <stdbool.h>

#include "gemm.h"

/* The pre-pass kernels of one context, built once, at the first call that needs them. */
typedef struct layout_pass {
    pthread_mutex_t lock; /* clSetKernelArg + enqueue of one cl_kernel must not interleave */
    bool tried;           /* built, or failed to: status says which */
    plan_status status;
    char why[512];
    char *log;            /* the compiler's log of a failed build */
    cl_program program;
    cl_kernel copy[2], transpose[2]; /* [0] float, [1] 16-bit elements */
    cl_kernel pack[2];                /* the copy into aligned rows, a vector per work-item */
    cl_kernel pack2[2];               /* two such copies in one launch */
} layout_pass;

void layout_init(layout_pass *lp);
/* Builds cl/layout.cl for the device once; later calls return the first outcome.  The
 * caller holds the context's build lock. */
plan_status layout_build(layout_pass *lp, cl_context ctx, const device_info *dev);
void layout_release(layout_pass *lp);

/* An operand of the row-major problem as it is stored: rows x cols at at.buf[at.off +
 * r * at.ld + c] (at.off: of the first problem of a batch); trans: the GEMM reads its
 * transpose; elem: 4 (float) or 2 (16-bit) bytes. */
typedef struct layout_operand {
    gemm_operand at;
    int rows, cols;
    bool trans;
    int elem;
} layout_operand;

/* The row length of a packed operand: n rounded up to a multiple of 16 elements (64 bytes of
 * floats, 32 of 16-bit values: every kernel's vector width divides it, and the rows lie on
 * TMA_FAST_ROW_BYTES, gemm.h). */
static inline long long layout_padded(long long n) { return (n + 15) / 16 * 16; }

/* Whether the plan's kernel was built to read operand `which` (0 A, 1 B, 2 C) transposed where
 * it lies (gemm_build).  Such an operand, packed only for its alignment, is copied as it is
 * stored and stays transposed (a layout_operand with trans cleared describes that copy). */
bool layout_reads_transposed(const gemm_plan *plan, int which);
/* Whether the plan's kernel needs X packed: transposed where it was not built to read it so,
 * or misaligned for it. */
bool layout_needs_pack(const gemm_plan *plan, int which, const layout_operand *X);
/* Elements of X's packed copy (what the GEMM reads: X, or X^T, with padded rows). */
long long layout_packed_elems(const layout_operand *X);

/* The plan's scratch buffer `slot` sized for `problems` packed copies of X, as the operand
 * the GEMM reads (offset 0, padded rows; copies layout_packed_elems apart), without
 * enqueueing anything. */
int layout_scratch(const gemm_plan *plan, cl_command_queue q, int slot, const layout_operand *X,
                   int problems, gemm_operand *packed, errbuf *e);
/* Enqueues the copy of X (at offset `off` of its buffer: a batch's entry) into packed, the
 * padding columns zeroed, and of the problems-1 after it, `stride` values apart, each
 * layout_packed_elems after the last (one launch); ev (may be NULL) receives its event. */
int layout_pack(layout_pass *lp, cl_command_queue q, const layout_operand *X, int off,
                int problems, int stride, gemm_operand packed, cl_event *ev, errbuf *e);
/* Enqueues the copies of A and of B as layout_pack would, in one launch where both are plain
 * copies of elements of one size into whole vectors (the common case of misaligned leading
 * dimensions), else as two.  ev (may be NULL) receives the first command's event, last (may
 * be NULL) the second's where there are two. */
int layout_pack_both(layout_pass *lp, cl_command_queue q, const layout_operand *A, int off_a,
                     gemm_operand packed_a, const layout_operand *B, int off_b,
                     gemm_operand packed_b, cl_event *ev, cl_event *last, errbuf *e);
/* Enqueues the copy of a rows x cols matrix of elem-byte elements (4 or 2) from `from` back
 * to `to` (C's copy-back: nothing past cols is written). */
int layout_unpack(layout_pass *lp, cl_command_queue q, int rows, int cols, int elem,
                  gemm_operand from, gemm_operand to, cl_event *ev, errbuf *e);

#endif
