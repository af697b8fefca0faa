/* clgemm_gemm, the general call (clgemm.h), which clgemm_sgemm, clgemm_sgemm_events and
 * clgemm_gemm_16bit also go through:
 *   1. every field is checked in the caller's terms (layout, ops, stored shapes), before
 *      anything is built or enqueued;
 *   2. the call becomes one row-major problem: a column-major C = op(A) op(B) is the
 *      row-major C^T = op(B)^T op(A)^T, i.e. (N, M, K) with A and B (and their ops)
 *      swapped, read where they lie (a column-major X read as row-major is X^T);
 *   3. choose() (api_gemm.c) picks the kernel for that problem; operands it cannot read
 *      where they lie (transposed, or misaligned for it) go through the layout pre-pass
 *      (layout.h), a misaligned C through a scratch C and a copy back;
 *   4. a strided batch is one launch where the kernel takes it (variant.batched) and no
 *      operand is packed per problem (an operand with stride 0 is packed once); else a host
 *      loop, each problem enqueued in turn under the plan's lock. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "batch_choice.h"
#include "chain.h"
#include "gemm_call.h"
#include "gemm_check.h"
#include "layout.h"
#include "prepass_tf32.h"
#include "registry.h"


/* The problem as a plan runs it: swapped (N x M, A and B exchanged and each read the other
 * way, C stored transposed by the kernel) for a plan with SWAP=1, else as the call is. */
static void problem_orient(problem *p, const gemm_plan *plan)
{
    if (p->swapped == plan->swap)
        return;
    const int m = p->s.M;
    p->s.M = p->s.N;
    p->s.N = m;
    const layout_operand a = p->x[0];
    p->x[0] = p->x[1];
    p->x[1] = a;
    p->x[0].trans = !p->x[0].trans;
    p->x[1].trans = !p->x[1].trans;
    const size_t stride = p->stride[0];
    p->stride[0] = p->stride[1];
    p->stride[1] = stride;
    p->swapped = plan->swap;
}

/* What the layout pre-pass copies for operand k: the stored matrix, transposed on the way
 * unless the kernel reads it transposed. */
static layout_operand pack_source(const problem *p, int k)
{
    layout_operand x = p->x[k];
    x.trans = x.trans && !p->keep[k];
    return x;
}

/* Whether the plan cuts this problem's K into slices (splitk.c): then each problem of a batch
 * is its own batch of slices, and C is written by the reduction, in place. */
static bool splits(const gemm_plan *plan, const problem *p)
{
    int ks;
    return splitk_slices(plan, p->s.K, &ks) > 0;
}

/* Problems of one launch: the batch, GEMM_BATCH_MAX_LAUNCH at the most. */
static size_t launch_problems(size_t batch)
{
    return batch < GEMM_BATCH_MAX_LAUNCH ? batch : GEMM_BATCH_MAX_LAUNCH;
}

/* Whether the whole batch fits one launch (of at most GEMM_BATCH_MAX_LAUNCH problems): a
 * kernel that takes it, reading every operand in place or packed, a strided one by one
 * launch of the layout pass for all the launch's problems (their copies one after another,
 * within 32-bit indexing).  Else one problem at a time: C packed (computed and copied back
 * per problem) keeps the host loop. */
static bool one_launch(const gemm_plan *plan, const problem *p, size_t batch, bool copies_ok)
{
    if (!plan->batched || splits(plan, p) || p->pack[2])
        return false;
    for (int k = 0; k < 2; k++)
        if (p->pack[k] && p->stride[k] != 0) {
            if (!copies_ok)
                return false;
            const layout_operand src = pack_source(p, k);
            if ((double)layout_packed_elems(&src) * (double)launch_problems(batch) >
                (double)MAX_INDEX)
                return false;
        }
    return true;
}

/* whole: one_launch (the layout pass's copies of a strided operand sized for it). */
static int enqueue_batch(layout_pass *lp, const gemm_plan *plan, chain *c, const problem *p,
                         float alpha, float beta, size_t batch, bool whole, errbuf *e)
{
    cl_event ev;
    size_t n = 1;
    for (size_t i = 0; i < batch; i += n) {
        n = whole ? launch_problems(batch - i) : 1;
        gemm_operand at[3];
        gemm_batch launch = { (int)n, { 0, 0, 0 } };
        int copies[2] = { 1, 1 }; /* problems each packed operand copies in one launch */
        for (int k = 0; k < 3; k++) {
            at[k] = p->x[k].at;
            at[k].off += (int)(i * p->stride[k]);
            at[k].trans = p->x[k].trans; /* left so only for a plan that reads it (layout.c) */
            launch.stride[k] = (int)p->stride[k];
            if (k < 2 && p->pack[k]) { /* shared: one copy; strided: the launch's, in a row */
                const layout_operand src = pack_source(p, k);
                copies[k] = p->stride[k] ? (int)n : 1;
                launch.stride[k] = p->stride[k] ? (int)layout_packed_elems(&src) : 0;
            }
        }
        const bool pack_a = p->pack[0] && (i == 0 || p->stride[0] != 0),
                   pack_b = p->pack[1] && (i == 0 || p->stride[1] != 0);
        if (pack_a && pack_b && copies[0] == 1 && copies[1] == 1) {
            /* one launch where the two copies are alike (layout.c) */
            const layout_operand src_a = pack_source(p, 0), src_b = pack_source(p, 1);
            cl_event ev_b;
            if (chain_fence(c, e) != 0 ||
                layout_pack_both(lp, c->q, &src_a, at[0].off, p->packed[0], &src_b, at[1].off,
                                 p->packed[1], chain_want(c, &ev), chain_want(c, &ev_b),
                                 e) != 0)
                return -1;
            if (ev_b)
                chain_record(c, ev, ev_b);
            else
                chain_one(c, ev);
        } else
            for (int k = 0; k < 2; k++)
                if (k ? pack_b : pack_a) {
                    const layout_operand src = pack_source(p, k);
                    if (chain_fence(c, e) != 0 ||
                        layout_pack(lp, c->q, &src, at[k].off, copies[k], (int)p->stride[k],
                                    p->packed[k], chain_want(c, &ev), e) != 0)
                        return -1;
                    chain_one(c, ev);
                }
        /* C in scratch: it holds C's values only where the GEMM reads them (beta != 0). */
        if (p->pack[2] && beta != 0.0f) {
            if (chain_fence(c, e) != 0 ||
                layout_pack(lp, c->q, &p->x[2], at[2].off, 1, 0, p->packed[2],
                            chain_want(c, &ev), e) != 0)
                return -1;
            chain_one(c, ev);
        }
        cl_event f = NULL, l = NULL;
        const gemm_operand a = p->pack[0] ? p->packed[0] : at[0];
        const gemm_operand b = p->pack[1] ? p->packed[1] : at[1];
        cl_event *want_f = c->want_first && !c->first ? &f : NULL;
        if (chain_fence(c, e) != 0 ||
            (splits(plan, p)
                 ? splitk_enqueue(plan, c->q, p->s, alpha, a, b, beta, at[2], p->bias, want_f,
                                  c->want_last ? &l : NULL, e)
                 : gemm_enqueue(plan, c->q, p->s, alpha, a, b, beta,
                                p->pack[2] ? p->packed[2] : at[2], p->bias, &launch, want_f,
                                c->want_last ? &l : NULL, e)) != 0)
            return -1;
        chain_record(c, f, l);
        if (p->pack[2]) {
            if (chain_fence(c, e) != 0 ||
                layout_unpack(lp, c->q, p->s.M, p->s.N, p->x[2].elem, p->packed[2], at[2],
                              chain_want(c, &ev), e) != 0)
                return -1;
            chain_one(c, ev);
        }
    }
    return 0;
}

/* Which operands the plan's kernel cannot read in place (transposed, or misaligned for it,
 * also by the batch stride), once the problem is turned as the plan runs it (SWAP).  0, or
 * -1 with *st set. */
static int decide_packing(const char *fn, const gemm_plan *plan, problem *p, size_t batch,
                          const user_operand *const u[3], bool *any, clgemm_status *st)
{
    problem_orient(p, plan);
    for (int k = 0; k < 3; k++) {
        /* Every problem of a batch must be aligned for the kernel, not only the first: a
         * stride its vector width does not divide moves the later ones off alignment. */
        const gemm_operand later = { NULL, (int)p->stride[k], p->x[k].at.ld, false };
        /* One copy where reading in place is slow; never a copy per problem for it, which
         * would run the batch as a launch per problem. */
        const bool one_copy = batch <= 1 || p->stride[k] == 0;
        p->pack[k] = layout_needs_pack(plan, k, &p->x[k]) ||
                     (batch > 1 && !gemm_plan_reads(plan, k, later)) ||
                     (one_copy && gemm_plan_reads_slowly(plan, k, p->x[k].at));
        p->keep[k] = p->pack[k] && p->x[k].trans && layout_reads_transposed(plan, k);
        if (k == 2 && (splits(plan, p) || p->swapped))
            p->pack[k] = false; /* stored element by element: by the reduction, or transposed */
        *any |= p->pack[k];
        const layout_operand src = pack_source(p, k);
        if (p->pack[k] && layout_packed_elems(&src) > (long long)MAX_INDEX) {
            *st = gemm_check_bad(fn, "%c: its packed copy for %s needs %lld elements, beyond 32-bit "
                      "indexing", u[k < 2 && p->swapped ? 1 - k : k]->name, plan->step->desc.name,
                      layout_packed_elems(&src));
            return -1;
        }
    }
    return 0;
}

/* The plan a call runs and what it packs: the row-major problem, the kernel (api_choose),
 * the operands it cannot read in place, and for a batch the build that runs it in one
 * launch.  x: the validated operands. */
bool gemm_call_whole_batch(const char *fn, const gemm_plan *plan, size_t batch,
                           const user_operand *const u[3], problem *p, bool *any, bool copies_ok)
{
    problem q = *p;
    bool q_any = false;
    clgemm_status ignored;
    if (decide_packing(fn, plan, &q, batch, u, &q_any, &ignored) != 0 ||
        !one_launch(plan, &q, batch, copies_ok))
        return false;
    *p = q;
    *any = q_any;
    return true;
}

static clgemm_status choose_call(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *d,
                                 size_t batch, const user_operand x[3], problem *p,
                                 struct ctx_plan **out, bool *any);

/* Whether step 10's TF32 pre-pass copies the problem's A (as the plan reads it) for this plan. */
static bool a_rounded_by_prepass(const gemm_plan *plan, const problem *p, size_t batch)
{
    if (plan->variant->prepass != PREPASS_TF32_PACK)
        return false;
    const gemm_batch b = { (int)batch, { (int)p->stride[0], (int)p->stride[1], (int)p->stride[2] } };
    gemm_operand a = p->x[0].at;
    a.trans = p->x[0].trans;
    return tf32_prepass_packs_a(plan, a, &b);
}

clgemm_status gemm_call_choose(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *d,
                               size_t *batch, problem *p, struct ctx_plan **out, bool *any)
{
    if (!ctx)
        return gemm_check_bad(fn, "NULL context");
    if (!d)
        return gemm_check_bad(fn, "NULL descriptor");
    *batch = d->batch ? d->batch : 1;
    const size_t elem_ab = d->ab_type == CLGEMM_F32 ? sizeof(float) : sizeof(cl_ushort);
    user_operand x[3];
    clgemm_status st = gemm_check(fn, d, *batch, elem_ab, x);
    if (st != CLGEMM_SUCCESS)
        return st;
    return choose_call(fn, ctx, d, *batch, x, p, out, any);
}

static clgemm_status choose_call(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *d,
                                 size_t batch, const user_operand x[3], problem *p,
                                 struct ctx_plan **out, bool *any)
{
    /* The row-major problem: the column-major one read as its transpose, A and B swapped. */
    const bool col = d->layout == CLGEMM_COL_MAJOR;
    const user_operand *ua = &x[col ? 1 : 0], *ub = &x[col ? 0 : 1];
    *p = (problem){ .s = { (int)(col ? d->N : d->M), (int)(col ? d->M : d->N), (int)d->K },
                    .bias = { d->bias, (int)d->off_bias, 0, false } };
    const user_operand *u[3] = { ua, ub, &x[2] };
    for (int k = 0; k < 3; k++) {
        p->x[k] = (layout_operand){ { u[k]->buf, (int)u[k]->off, (int)u[k]->ld, false },
                                   (int)(col ? u[k]->cols : u[k]->rows),
                                   (int)(col ? u[k]->rows : u[k]->cols),
                                   u[k]->op == CLGEMM_OP_T, (int)u[k]->elem };
        p->stride[k] = u[k]->stride;
    }

    const char *algorithm = d->algorithm;
    if (!algorithm && d->ab_type != CLGEMM_F32)
        algorithm = "tensor_core"; /* no fallback: a wrong guess would change the arithmetic */
    clgemm_status st;
    struct ctx_plan *cp = NULL;
    /* Transposes the kernel reads where they lie are built into it; the rest are packed.  The
     * epilogue is built into every kernel; a column-major C is stored transposed, so its bias
     * (per caller's column) runs along the kernel's rows. */
    gemm_build want = { .trans_a = p->x[0].trans, .trans_b = p->x[1].trans,
                        .c_type = (int)d->c_type, .epilogue = (int)d->epilogue,
                        .bias_rows = col && (d->epilogue & 1) };
    /* A named step's batched build runs any batch, in one launch or a problem per launch
     * (a variant that takes no batch builds as it would anyway): asking for it at once saves
     * building the one-problem kernel only to replace it.  Purpose names and auto choose
     * their kernel by the build, so they keep the two-step choice below. */
    const algo_def *named = algorithm ? algo_find_n(algorithm, strcspn(algorithm, ":")) : NULL;
    want.batched = batch > 1 && named && !named->candidates;
    if (batch > 1 && d->ab_type == CLGEMM_F32 && (!algorithm || strcmp(algorithm, "auto") == 0) &&
        (cp = batch_choice_auto_rule(fn, ctx, d, batch, &want, u, p, any))) {
        *out = cp;
        return CLGEMM_SUCCESS;
    }
    if ((st = api_choose(fn, ctx, algorithm, d->ab_type, (size_t)p->s.M, (size_t)p->s.N,
                         (size_t)p->s.K, &want, &cp)) != CLGEMM_SUCCESS) {
        *out = cp; /* a plan that failed to build, for its log, or NULL */
        return st;
    }
    *any = false;
    if (decide_packing(fn, &cp->plan, p, batch, u, any, &st) != 0)
        return st;
    /* TF32 with A rounded in registers, where A is copied first all the same: A rounded by
     * that copy instead (api_tf32_copied_a; the same orientation, so the packing stands). */
    if (cp->plan.a_regs && (p->pack[0] || a_rounded_by_prepass(&cp->plan, p, batch))) {
        struct ctx_plan *before = cp;
        api_tf32_copied_a(ctx, &cp);
        if (cp != before && decide_packing(fn, &cp->plan, p, batch, u, any, &st) != 0)
            return st;
    }
    /* A batch that one launch can run gets the plan's batched build (its kernels take the
     * batch in dimension 2; a purpose name's is the candidate batch_choice_candidate picks);
     * where no such build runs it in one launch, the plain one loops. */
    struct ctx_plan *pick = NULL;
    if (batch > 1 && cp->algo->candidates &&
        (pick = batch_choice_candidate(fn, ctx, d, cp, batch, &want, u, p, any))) {
        *out = pick;
        return CLGEMM_SUCCESS;
    }
    if (batch > 1 && cp->plan.variant->batched && !cp->algo->candidates) {
        struct ctx_plan *twin = api_batched_twin(ctx, cp);
        if (!twin)
            return api_fail(fn, CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
        if (twin->status == PLAN_OK && gemm_call_whole_batch(fn, &twin->plan, batch, u, p, any, true))
            cp = twin;
    }
    *out = cp;
    return CLGEMM_SUCCESS;
}

clgemm_status gemm_call(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *d,
                        cl_command_queue queue, cl_event *first, cl_event *last)
{
    if (first)
        *first = NULL;
    if (last)
        *last = NULL;
    size_t batch = 1;
    problem p;
    struct ctx_plan *cp = NULL;
    bool any = false;
    clgemm_status st = gemm_call_choose(fn, ctx, d, &batch, &p, &cp, &any);
    if (st != CLGEMM_SUCCESS)
        return st;
    const gemm_plan *plan = &cp->plan;
    if (any) {
        pthread_mutex_lock(&ctx->build);
        plan_status ls = layout_build(&ctx->layout, ctx->ctx, ctx->dev);
        pthread_mutex_unlock(&ctx->build);
        if (ls != PLAN_OK)
            return api_fail(fn, ls == PLAN_BUILD_FAILED ? CLGEMM_ERROR_BUILD_FAILED
                                                        : CLGEMM_ERROR_OPENCL,
                            "%s", ctx->layout.why);
    }

    chain c = { .q = queue ? queue : ctx->queue, .want_first = first != NULL,
                .want_last = last != NULL };
    c.unordered = gemm_queue_unordered(c.q);
    errbuf e = { "" };
    int rc = 0;
    pthread_mutex_lock(&cp->enqueue);
    /* Only a call that uses scratch holds on to its queue (for the next call's reuse).  Step
     * 10 always does: its groups write their tensor maps into scratch slots, and keep them
     * there for the next call (tma_map_cache.h), which a launch on another queue could
     * overwrite before this one's groups read them, or read before this one wrote them. */
    if (any || plan->variant->prepass != PREPASS_NONE || splits(plan, &p) ||
        (plan->variant->tma && !plan->tma_emulated))
        gemm_scratch_begin(plan, c.q);
    static const int slots[3] = { SCRATCH_LAYOUT_A, SCRATCH_LAYOUT_B, SCRATCH_LAYOUT_C };
    const bool whole = one_launch(plan, &p, batch, true);
    for (int k = 0; k < 3 && rc == 0; k++)
        if (p.pack[k]) {
            const layout_operand src = pack_source(&p, k);
            const int problems = k < 2 && p.stride[k] && whole ? (int)launch_problems(batch) : 1;
            rc = layout_scratch(plan, c.q, slots[k], &src, problems, &p.packed[k], &e);
            p.packed[k].trans = p.keep[k];
        }
    if (rc == 0)
        rc = enqueue_batch(&ctx->layout, plan, &c, &p, d->alpha, d->beta, batch, whole, &e);
    pthread_mutex_unlock(&cp->enqueue);
    if (rc != 0) {
        if (c.first)
            clReleaseEvent(c.first);
        if (c.last)
            clReleaseEvent(c.last);
        return api_fail(fn, CLGEMM_ERROR_OPENCL, "%s", e.msg);
    }
    if (first)
        *first = c.first;
    if (last)
        *last = c.last;
    return api_ok();
}

clgemm_status clgemm_gemm(clgemm_context *ctx, const clgemm_gemm_desc *desc,
                          cl_command_queue queue, cl_event *first, cl_event *last)
{
    return gemm_call(__func__, ctx, desc, queue, first, last);
}
