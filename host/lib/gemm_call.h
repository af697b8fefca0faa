/* What host/lib/gemm_call.c shares with the batch choice (batch_choice.c): the row-major
 * problem a call becomes, and the two tests a batched plan must pass. */
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

/* Which operands the plan's kernel cannot read in place (transposed, or misaligned for it,
 * also by the batch stride), once the problem is turned as the plan runs it (SWAP).  0, or
 * -1 with *st set. */
int gemm_call_decide_packing(const char *fn, const gemm_plan *plan, problem *p, size_t batch,
                             const user_operand *const u[3], bool *any, clgemm_status *st);

/* Whether the whole batch fits one launch of the plan's kernel. */
bool gemm_call_one_launch(const gemm_plan *plan, const problem *p);

#endif
