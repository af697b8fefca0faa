/* Step 10's TF32 pre-pass (cl/mma/tf32_pack.h) from the host: the packed operands the TF32
 * kernel reads, B^T and (when asked for or needed) A, rounded to tf32 into the plan's scratch,
 * for one problem or for every problem of a batch launch at once. */
#ifndef CLGEMM_PREPASS_TF32_H
#define CLGEMM_PREPASS_TF32_H

#include "gemm.h"

/* The halves of an operand as the kernel reads it from memory: with split (tf32x3) the packed
 * hi rows and the lo rows below them, 2; else 1.  A split in registers (PACKA=3) is read as
 * stored, one half. */
static inline int tf32_halves(const gemm_plan *plan, int which)
{
    return plan->split && !(which == 0 && plan->a_regs) && !(which == 1 && plan->b_split_local)
               ? 2
               : 1;
}

/* Whether the pre-pass copies A (rounding it) for this plan: A as the kernel reads it, after
 * any layout pass (gemm_operand.trans: stored transposed). */
bool tf32_prepass_packs_a(const gemm_plan *plan, gemm_operand A, const gemm_batch *batch);

/* Sizes the scratch buffers for the call and turns *A and *B into the packed operands the
 * GEMM reads; *kernel_batch becomes the batch the GEMM kernel sees (the packed operands'
 * strides: 0 for an operand shared by every problem, which is packed once).  Nothing is
 * enqueued. */
int tf32_prepass_buffers(const gemm_plan *plan, cl_command_queue q, gemm_shape s,
                         gemm_operand *A, gemm_operand *B, const gemm_batch *batch,
                         gemm_batch *kernel_batch, errbuf *e);

/* Enqueues the pre-pass from the caller's A and B (as stored, any offset, leading dimension
 * and stride) into the packed ones; first (may be NULL) receives the first kernel's event. */
int tf32_prepass_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s,
                         gemm_operand A, gemm_operand B, const gemm_batch *batch,
                         gemm_operand packed_a, gemm_operand packed_b,
                         const gemm_batch *kernel_batch, cl_event *first, errbuf *e);

#endif
