/* What host/lib/gemm_call.c shares with the batch choice (batch_choice.c) and the resolve
 * calls (gemm_resolve.c): the row-major problem a call becomes, the choice of its plan, and
 * the two tests a batched plan must pass. */
#ifndef CLGEMM_GEMM_CALL_H
#define CLGEMM_GEMM_CALL_H

#include <stdbool.h>
#include <stddef.h>

#include "api_internal.h"
#include "gemm_check.h"
#include "layout.h"

/* The row-major problem and its packed operands: enqueues every command of the call. */
typedef struct problem {
    gemm_shape s;
    gemm_operand bias; /* buf NULL: none */
    layout_operand x[3]; /* A, B, C as the row-major kernel sees them */
    size_t stride[3];
    bool pack[3];
    bool keep[3];         /* packed for alignment only, read transposed: copied, not transposed */
    gemm_operand packed[3];
    bool swapped;         /* C^T = op(B)^T op(A)^T, for a plan with SWAP=1 */
} problem;

/* What clgemm_gemm and the calls that only say what it would run share (gemm_resolve.c): the
 * descriptor checked, then the call's row-major problem, its plan (*out: also a named plan
 * that failed to build, for its log), and whether any operand is packed. */
clgemm_status gemm_call_choose(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *d,
                               size_t *batch, problem *p, struct ctx_plan **out, bool *any);

/* Whether the plan runs the whole batch in one launch, its packing decided on a copy of *p:
 * then *p and *any take that packing; else both stay as they were.  copies_ok: also where
 * a strided operand must be copied first (every problem's copy in one launch of the layout
 * pass); else only with every strided operand read in place. */
bool gemm_call_whole_batch(const char *fn, const gemm_plan *plan, size_t batch,
                           const user_operand *const u[3], problem *p, bool *any,
                           bool copies_ok);

#endif
