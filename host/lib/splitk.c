/* Split-K: a plan with SPLITK = S > 1 cuts K into slices and runs its own kernel on them as a
 * strided batch, then adds the partial products in a fixed order (cl/splitk_reduce.cl).
 * Nothing in a GEMM kernel changes: any variant that takes a batch in one launch
 * (variant.batched) can be split, the lesson steps and the matrix-unit paths alike.  Step 10
 * is the exception (fused_enqueue): its slices are one launch, and the group that finishes a
 * block of C last adds the partial products in the same fixed order and stores C (a second
 * launch costs as much as a small GEMM; cl/mma/tma_ksplit.h).
 *
 * Slices are Ks = floor(K / S) rounded down to a multiple of 8 values long (so that each
 * slice's operands stay as aligned as the whole ones: every kernel's vector width divides 8);
 * the S whole slices are one launch, and the rest, if any, fewer than 8·S values, a second
 * one.  The rest is cut short on purpose: the launches run one after the other, and
 * a rest as long as a slice (ceil(K / S) slices leave 1360 of K = 4096 in 3) ran as long as
 * the whole first launch with a third of its blocks (probe181: 0.30 ms at 128x4096x4096, where
 * 4 even slices took 0.13).
 * Slice s reads A advanced by s·Ks columns (s·Ks·lda elements when the kernel reads A stored
 * transposed), B by s·Ks rows (s·Ks elements when stored transposed, N x K), and writes
 * partial product s of the plan's scratch with alpha 1 and beta 0 (M x N, rows N rounded up
 * to 8 values apart: aligned for every kernel's vector stores); the reduction reads them in
 * slice order and stores alpha·sum + beta·C through the epilogue and in C's type. */
#include "gemm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "program.h"

int splitk_create(gemm_plan *plan, cl_context ctx, const device_info *dev,
                  const char *build_defines, char **log, errbuf *e)
{
    if (plan->splitk <= 1)
        return 0;
    char *source = kernel_source_load("splitk_reduce.cl", e);
    if (!source)
        return -1;
    char options[512];
    snprintf(options, sizeof options, "%s -cl-std=CL1.2%s", PROGRAM_BASE_OPTIONS, build_defines);
    bool cached = false, unsupported = false;
    plan->reduce_program = program_build(ctx, dev, source, options, log, &cached, &unsupported,
                                         e);
    free(source);
    if (!plan->reduce_program)
        return -1;
    cl_int st;
    plan->reduce = clCreateKernel(plan->reduce_program, "gemm_splitk_reduce", &st);
    if (!plan->reduce) {
        err_set(e, "clCreateKernel(gemm_splitk_reduce) failed: %s", cl_error_name(st));
        return -1;
    }
    return 0;
}

void splitk_release(gemm_plan *plan)
{
    if (plan->reduce)
        clReleaseKernel(plan->reduce);
    if (plan->reduce_program)
        clReleaseProgram(plan->reduce_program);
    plan->reduce = NULL;
    plan->reduce_program = NULL;
}

/* K's cut for a split plan: *whole slices of *ks values, then a rest of *rest (0: none). */
static void cut_k(const gemm_plan *plan, int K, int *ks, int *whole, int *rest)
{
    const int unit = plan->variant->tma ? plan->bk : 8;
    if (!plan->ksplit_fused && K >= unit * plan->splitk) { /* a short rest (above) */
        *ks = K / plan->splitk / unit * unit;
        *whole = plan->splitk;
    } else {
        /* One launch takes a shorter last slice as it comes (and a K below 8·S is cut as it
         * can be). */
        const long long len = ((long long)K + plan->splitk - 1) / plan->splitk;
        *ks = (int)((len + unit - 1) / unit * unit);
        *whole = K / *ks;
    }
    *rest = K - *whole * *ks;
}

int splitk_slices(const gemm_plan *plan, int K, int *ks)
{
    if (plan->splitk <= 1 || (!plan->reduce && !plan->ksplit_fused))
        return 0;
    /* Even a K too short to cut goes through the reduction (as one slice): the plan's kernel
     * was built plain and cannot store C's type or its epilogue itself.  Step 10's slices
     * are whole K slices of its own (BK), so that no TMA box reads into the next one; the
     * others' are multiples of 8, so that every slice keeps its operands' 16-byte vectors. */
    int whole, rest;
    cut_k(plan, K, ks, &whole, &rest);
    return whole + (rest > 0);
}

/* Step 10's and 11's split: one launch (cl/mma/tma_ksplit.h, cl/skinny_ksplit.h), partial
 * products and block counts in the plan's scratch. */
static int fused_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s, float alpha,
                         gemm_operand A, gemm_operand B, float beta, gemm_operand C,
                         gemm_operand bias, cl_event *first, cl_event *last, errbuf *e)
{
    gemm_ksplit ks = { .ldp = (s.N + 7) / 8 * 8 };
    ks.parts = splitk_slices(plan, s.K, &ks.len);
    const size_t blocks = (size_t)((s.M + plan->bm - 1) / plan->bm) *
                          (size_t)((s.N + plan->bn - 1) / plan->bn);
    /* Step 10 keeps its partial products as its accumulators lie, whole blocks of BM x BN
     * (cl/mma/tma_ksplit.h); step 11 as C, M rows of ldp. */
    const size_t per_part = plan->variant->tma ? blocks * (size_t)plan->bm * (size_t)plan->bn
                                               : (size_t)s.M * (size_t)ks.ldp;
    const size_t partials = (size_t)ks.parts * per_part;
    if (ks.parts > GEMM_BATCH_MAX_LAUNCH || partials > INT_MAX || blocks > INT_MAX) {
        err_set(e, "SPLITK=%d needs %d slices of %zu partial sums, beyond one launch",
                plan->splitk, ks.parts, partials);
        return -1;
    }
    /* Step 11 writes its partial product and counts even as one slice (a K too short to cut:
     * a test of the slice count in its stores cost 10-20% at M = 16, probe58); step 10 skips
     * both then, and never reads these. */
    if (ks.parts >= 1) {
        ks.partials =
            gemm_scratch_get(plan, q, SCRATCH_SPLITK, partials * sizeof(float), e);
        ks.counts = ks.partials ? gemm_scratch_get_zeroed(plan, q, SCRATCH_KSPLIT_COUNTS,
                                                          blocks * sizeof(cl_int), e)
                                : NULL;
        if (!ks.counts)
            return -1;
    }
    return gemm_enqueue_split(plan, q, s, alpha, A, B, beta, C, bias, &ks, first, last, e);
}

/* One launch of the GEMM over `count` slices of length k starting with slice `first`. */
static int slices_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s, int first,
                          int count, int k, int ks, gemm_operand A, gemm_operand B,
                          gemm_operand P, cl_event *f, cl_event *l, errbuf *e)
{
    const int step_a = A.trans ? ks * A.ld : ks, step_b = B.trans ? ks : ks * B.ld;
    const int step_p = s.M * P.ld;
    A.off += first * step_a;
    B.off += first * step_b;
    P.off = first * step_p;
    const gemm_batch batch = { count, { step_a, step_b, step_p } };
    const gemm_shape slice = { s.M, s.N, k };
    const gemm_operand no_bias = { NULL, 0, 0, false };
    return gemm_enqueue(plan, q, slice, 1.0f, A, B, 0.0f, P, no_bias, &batch, f, l, e);
}

int splitk_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s, float alpha,
                   gemm_operand A, gemm_operand B, float beta, gemm_operand C,
                   gemm_operand bias, cl_event *first, cl_event *last, errbuf *e)
{
    if (plan->ksplit_fused)
        return fused_enqueue(plan, q, s, alpha, A, B, beta, C, bias, first, last, e);
    int ks = s.K, whole = 0, rest = 0;
    cut_k(plan, s.K, &ks, &whole, &rest);
    const int slices = whole + (rest > 0);
    const int ldp = (s.N + 7) / 8 * 8;
    const size_t partials = (size_t)slices * (size_t)s.M * (size_t)ldp;
    if (partials > INT_MAX) {
        err_set(e, "SPLITK=%d needs %zu partial sums, beyond 32-bit indexing", plan->splitk,
                partials);
        return -1;
    }
    cl_mem scratch = gemm_scratch_get(plan, q, SCRATCH_SPLITK, partials * sizeof(float), e);
    if (!scratch)
        return -1;
    const gemm_operand P = { scratch, 0, ldp, false };
    const bool unordered = gemm_queue_unordered(q);
    cl_event f = NULL, ev = NULL;
    int rc = -1;
    if (whole > 0 && slices_enqueue(plan, q, s, 0, whole, ks, ks, A, B, P,
                                    first ? &f : NULL, NULL, e) != 0)
        goto fail;
    if (rest > 0 && ((whole > 0 && gemm_queue_fence(q, unordered, e) != 0) ||
                     slices_enqueue(plan, q, s, whole, 1, rest, ks, A, B, P,
                                    first && !f ? &f : NULL, NULL, e) != 0))
        goto fail;
    if (gemm_queue_fence(q, unordered, e) != 0)
        goto fail;
    cl_kernel k = plan->reduce;
    CL_TRY(e, clSetKernelArg(k, 0, sizeof(int), &s.M));
    CL_TRY(e, clSetKernelArg(k, 1, sizeof(int), &s.N));
    CL_TRY(e, clSetKernelArg(k, 2, sizeof(int), &slices));
    CL_TRY(e, clSetKernelArg(k, 3, sizeof(cl_mem), &scratch));
    CL_TRY(e, clSetKernelArg(k, 4, sizeof(int), &ldp));
    CL_TRY(e, clSetKernelArg(k, 5, sizeof(float), &alpha));
    CL_TRY(e, clSetKernelArg(k, 6, sizeof(float), &beta));
    CL_TRY(e, clSetKernelArg(k, 7, sizeof(cl_mem), &C.buf));
    CL_TRY(e, clSetKernelArg(k, 8, sizeof(int), &C.off));
    CL_TRY(e, clSetKernelArg(k, 9, sizeof(int), &C.ld));
    CL_TRY(e, clSetKernelArg(k, 10, sizeof(cl_mem), bias.buf ? &bias.buf : NULL));
    CL_TRY(e, clSetKernelArg(k, 11, sizeof(int), &bias.off));
    /* Blocks of 32 x 32 elements, a group of 32 x 8 work-items each (cl/splitk_reduce.cl). */
    const size_t local[2] = { 32, 8 };
    const size_t global[2] = { ((size_t)s.N + 31) / 32 * 32, ((size_t)s.M + 31) / 32 * 8 };
    CL_TRY(e, clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL,
                                     first || last ? &ev : NULL));
    if (first) {
        *first = f;
        f = NULL;
    }
    if (last) {
        *last = ev;
        ev = NULL;
    }
    rc = 0;
fail:
    if (f)
        clReleaseEvent(f);
    if (ev)
        clReleaseEvent(ev);
    return rc;
}
