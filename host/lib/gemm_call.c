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
#include "layout.h"

#define MAX_INDEX ((unsigned long long)INT_MAX)

/* One operand in the caller's terms. */
typedef struct user_operand {
    char name;            /* 'A', 'B' or 'C' */
    cl_mem buf;
    size_t off, ld, stride;
    size_t rows, cols;    /* the matrix as stored (op T: op(X) transposed) */
    char rdim, cdim;      /* the names of those sizes */
    int op;               /* clgemm_op; C: -1 */
    size_t elem;          /* bytes per element */
    unsigned long long extent, end; /* elements of one matrix; past the last of the batch */
} user_operand;

static clgemm_status bad(const char *fn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static clgemm_status bad(const char *fn, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "%s", msg);
}

/* "(row-major, op_a T: A is K x M)" */
static void shape_words(const user_operand *x, clgemm_layout layout, char *out, size_t size)
{
    const char *lay = layout == CLGEMM_ROW_MAJOR ? "row-major" : "column-major";
    if (x->op < 0)
        snprintf(out, size, "(%s: %c is %c x %c)", lay, x->name, x->rdim, x->cdim);
    else
        snprintf(out, size, "(%s, op_%c %c: %c is %c x %c)", lay, x->name + 'a' - 'A',
                 x->op == CLGEMM_OP_T ? 'T' : 'N', x->name, x->rdim, x->cdim);
}

/* Buffer, leading dimension, offset, stride: each within 32-bit indexing and the buffer. */
static clgemm_status check_operand(const char *fn, clgemm_layout layout, size_t batch,
                                   user_operand *x)
{
    const char f = (char)(x->name + 'a' - 'A');
    char shape[96];
    shape_words(x, layout, shape, sizeof shape);
    if (!x->buf)
        return bad(fn, "%c: NULL buffer", x->name);
    const bool row = layout == CLGEMM_ROW_MAJOR;
    const size_t line = row ? x->cols : x->rows, lines = row ? x->rows : x->cols;
    if (x->ld < line)
        return bad(fn, "ld_%c %zu < %zu, the length of a stored %s of %c %s", f, x->ld, line,
                   row ? "row" : "column", x->name, shape);
    if (x->ld > MAX_INDEX || x->off > MAX_INDEX || x->stride > MAX_INDEX)
        return bad(fn, "%s_%c %zu beyond 32-bit indexing (at most 2^31-1)",
                   x->ld > MAX_INDEX ? "ld" : x->off > MAX_INDEX ? "off" : "stride", f,
                   x->ld > MAX_INDEX ? x->ld : x->off > MAX_INDEX ? x->off : x->stride);
    /* Below 2^31 each, so none of these products or sums wraps 64 bits. */
    x->extent = (unsigned long long)(lines - 1) * x->ld + line;
    x->end = x->off + (unsigned long long)(batch - 1) * x->stride + x->extent;
    if (x->end > MAX_INDEX)
        return bad(fn, "%c: off_%c + (batch-1) * stride_%c + its extent = %llu elements, "
                   "beyond 32-bit indexing (at most 2^31-1) %s", x->name, f, f, x->end, shape);
    size_t have = 0;
    cl_int err = clGetMemObjectInfo(x->buf, CL_MEM_SIZE, sizeof have, &have, NULL);
    if (err != CL_SUCCESS)
        return bad(fn, "%c: clGetMemObjectInfo failed: %s", x->name, cl_error_name(err));
    if (have / x->elem < x->end)
        return bad(fn, "%c: buffer has %zu bytes, needs %llu (off_%c %zu + (batch-1) * "
                   "stride_%c %zu + %llu elements %s, of %zu bytes)", x->name, have,
                   x->end * x->elem, f, x->off, f, x->stride, x->extent, shape, x->elem);
    return CLGEMM_SUCCESS;
}

/* The bytes of a batch of operands, in terms of its root buffer (a sub-buffer's parent):
 * `count` ranges of `len` bytes, `step` apart, from `first`. */
typedef struct span {
    cl_mem root;
    long long first, len, step, count;
} span;

static span span_of(const user_operand *x, size_t batch)
{
    span s = { x->buf, (long long)(x->off * x->elem), (long long)(x->extent * x->elem),
               (long long)(x->stride * x->elem), (long long)batch };
    cl_mem parent = NULL;
    size_t origin = 0;
    if (clGetMemObjectInfo(x->buf, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) ==
            CL_SUCCESS &&
        parent &&
        clGetMemObjectInfo(x->buf, CL_MEM_OFFSET, sizeof origin, &origin, NULL) == CL_SUCCESS) {
        s.root = parent;
        s.first += (long long)origin;
    }
    return s;
}

/* Whether any range of x shares a byte with any range of y.  C is written while A and B are
 * read: shared bytes give garbage, so they are refused.  Exact for interleaved batches (A[0]
 * C[0] A[1] C[1] ... in one buffer is fine): for each range of x, the first range of y that
 * ends after its start is the only candidate (y's ranges start in order). */
static bool spans_overlap(span x, span y)
{
    if (x.root != y.root)
        return false;
    const long long x_end = x.first + (x.count - 1) * x.step + x.len,
                    y_end = y.first + (y.count - 1) * y.step + y.len;
    if (x_end <= y.first || y_end <= x.first)
        return false;
    for (long long i = 0; i < x.count; i++) {
        const long long lo = x.first + i * x.step, hi = lo + x.len;
        long long j = 0;
        if (y.step > 0 && lo - y.len - y.first >= 0)
            j = (lo - y.len - y.first) / y.step + 1; /* y's range j ends after lo */
        if (j < y.count && y.first + j * y.step < hi && y.first + j * y.step + y.len > lo)
            return true;
        if (x.step == 0)
            break;
    }
    return false;
}

static clgemm_status validate(const char *fn, const clgemm_gemm_desc *d, size_t batch,
                              size_t elem_ab, user_operand x[3])
{
    if ((unsigned)d->layout > CLGEMM_COL_MAJOR)
        return bad(fn, "layout %d is neither CLGEMM_ROW_MAJOR nor CLGEMM_COL_MAJOR",
                   (int)d->layout);
    if ((unsigned)d->op_a > CLGEMM_OP_T || (unsigned)d->op_b > CLGEMM_OP_T)
        return bad(fn, "%s %d is neither CLGEMM_OP_N nor CLGEMM_OP_T",
                   (unsigned)d->op_a > CLGEMM_OP_T ? "op_a" : "op_b",
                   (int)((unsigned)d->op_a > CLGEMM_OP_T ? d->op_a : d->op_b));
    const size_t sizes[3] = { d->M, d->N, d->K };
    for (int i = 0; i < 3; i++)
        if (sizes[i] < 1 || sizes[i] > MAX_INDEX)
            return bad(fn, "%c %zu out of range 1..2^31-1", "MNK"[i], sizes[i]);
    if (batch > MAX_INDEX)
        return bad(fn, "batch %zu out of range 0..2^31-1", batch);
    if (!clgemm_dtype_name(d->ab_type))
        return bad(fn, "ab_type %d is not a clgemm_dtype (CLGEMM_F32, CLGEMM_F16, CLGEMM_BF16)",
                   (int)d->ab_type);
    const bool ta = d->op_a == CLGEMM_OP_T, tb = d->op_b == CLGEMM_OP_T;
    x[0] = (user_operand){ 'A', d->A, d->off_a, d->ld_a, d->stride_a, ta ? d->K : d->M,
                           ta ? d->M : d->K, ta ? 'K' : 'M', ta ? 'M' : 'K', d->op_a, elem_ab,
                           0, 0 };
    x[1] = (user_operand){ 'B', d->B, d->off_b, d->ld_b, d->stride_b, tb ? d->N : d->K,
                           tb ? d->K : d->N, tb ? 'N' : 'K', tb ? 'K' : 'N', d->op_b, elem_ab,
                           0, 0 };
    x[2] = (user_operand){ 'C', d->C, d->off_c, d->ld_c, d->stride_c, d->M, d->N, 'M', 'N', -1,
                           sizeof(float), 0, 0 };
    clgemm_status st;
    for (int i = 0; i < 3; i++)
        if ((st = check_operand(fn, d->layout, batch, &x[i])) != CLGEMM_SUCCESS)
            return st;
    if (batch > 1 && x[2].stride < x[2].extent)
        return bad(fn, "stride_c %zu < %llu, the extent of one C: C[i] would overlap C[i+1]",
                   x[2].stride, x[2].extent);
    const span sc = span_of(&x[2], batch);
    for (int i = 0; i < 2; i++)
        if (spans_overlap(sc, span_of(&x[i], batch)))
            return bad(fn, "C overlaps %c in the same buffer (C is written while %c is read)",
                       x[i].name, x[i].name);
    return CLGEMM_SUCCESS;
}

/* The first and last commands of a call, and the order of its commands on a queue that does
 * not keep it itself (a barrier before every command but the first). */
typedef struct chain {
    cl_command_queue q;
    bool unordered, want_first, want_last;
    int commands;
    cl_event first, last;
} chain;

static int chain_fence(chain *c, errbuf *e)
{
    return c->commands++ ? gemm_queue_fence(c->q, c->unordered, e) : 0;
}

/* The event the next command should give back (NULL: neither end is wanted from it). */
static cl_event *chain_want(chain *c, cl_event *slot)
{
    *slot = NULL;
    return (c->want_first && !c->first) || c->want_last ? slot : NULL;
}

/* Takes the references of f (the first command of what was enqueued) and l (its last). */
static void chain_record(chain *c, cl_event f, cl_event l)
{
    if (f && c->want_first && !c->first) {
        c->first = f;
        f = NULL;
    }
    if (l && c->want_last) {
        if (c->last)
            clReleaseEvent(c->last);
        c->last = l;
        l = NULL;
    }
    if (f)
        clReleaseEvent(f);
    if (l)
        clReleaseEvent(l);
}

/* One command's event as both ends. */
static void chain_one(chain *c, cl_event ev)
{
    if (ev)
        clRetainEvent(ev);
    chain_record(c, ev, ev);
}

/* The row-major problem and its packed operands: enqueues every command of the call. */
typedef struct problem {
    gemm_shape s;
    layout_operand x[3]; /* A, B, C as the row-major kernel sees them */
    size_t stride[3];
    bool pack[3];
    gemm_operand packed[3];
} problem;

/* Whether the whole batch fits one launch (of at most GEMM_BATCH_MAX_LAUNCH problems): a
 * kernel that takes it, reading every operand in place or from one packed copy.  Else one
 * problem at a time: an operand packed per problem (a strided one) or C (packed, computed
 * and copied back per problem) keeps the host loop. */
static bool one_launch(const gemm_plan *plan, const problem *p)
{
    return plan->batched && !p->pack[2] && (!p->pack[0] || p->stride[0] == 0) &&
           (!p->pack[1] || p->stride[1] == 0);
}

static int enqueue_batch(layout_pass *lp, const gemm_plan *plan, chain *c, const problem *p,
                         float alpha, float beta, size_t batch, errbuf *e)
{
    cl_event ev;
    const bool whole = one_launch(plan, p);
    size_t n = 1;
    for (size_t i = 0; i < batch; i += n) {
        n = whole ? batch - i : 1;
        if (n > GEMM_BATCH_MAX_LAUNCH)
            n = GEMM_BATCH_MAX_LAUNCH;
        gemm_operand at[3];
        gemm_batch launch = { (int)n, { 0, 0, 0 } };
        for (int k = 0; k < 3; k++) {
            at[k] = p->x[k].at;
            at[k].off += (int)(i * p->stride[k]);
            at[k].trans = p->x[k].trans; /* left so only for a plan that reads it (layout.c) */
            launch.stride[k] = p->pack[k] ? 0 : (int)p->stride[k]; /* packed: one copy */
        }
        for (int k = 0; k < 2; k++)
            if (p->pack[k] && (i == 0 || p->stride[k] != 0)) {
                if (chain_fence(c, e) != 0 ||
                    layout_pack(lp, c->q, &p->x[k], at[k].off, p->packed[k], chain_want(c, &ev),
                                e) != 0)
                    return -1;
                chain_one(c, ev);
            }
        /* C in scratch: it holds C's values only where the GEMM reads them (beta != 0). */
        if (p->pack[2] && beta != 0.0f) {
            if (chain_fence(c, e) != 0 ||
                layout_pack(lp, c->q, &p->x[2], at[2].off, p->packed[2], chain_want(c, &ev),
                            e) != 0)
                return -1;
            chain_one(c, ev);
        }
        cl_event f = NULL, l = NULL;
        if (chain_fence(c, e) != 0 ||
            gemm_enqueue(plan, c->q, p->s, alpha, p->pack[0] ? p->packed[0] : at[0],
                         p->pack[1] ? p->packed[1] : at[1], beta,
                         p->pack[2] ? p->packed[2] : at[2], &launch,
                         c->want_first && !c->first ? &f : NULL, c->want_last ? &l : NULL,
                         e) != 0)
            return -1;
        chain_record(c, f, l);
        if (p->pack[2]) {
            if (chain_fence(c, e) != 0 ||
                layout_unpack(lp, c->q, p->s.M, p->s.N, p->packed[2], at[2], chain_want(c, &ev),
                              e) != 0)
                return -1;
            chain_one(c, ev);
        }
    }
    return 0;
}

/* Which operands the plan's kernel cannot read in place (transposed, or misaligned for it,
 * also by the batch stride).  0, or -1 with *st set. */
static int decide_packing(const char *fn, const gemm_plan *plan, problem *p, size_t batch,
                          const user_operand *const u[3], bool *any, clgemm_status *st)
{
    for (int k = 0; k < 3; k++) {
        /* Every problem of a batch must be aligned for the kernel, not only the first: a
         * stride its vector width does not divide moves the later ones off alignment. */
        const gemm_operand later = { NULL, (int)p->stride[k], p->x[k].at.ld, false };
        p->pack[k] = layout_needs_pack(plan, &p->x[k]) ||
                     (batch > 1 && !gemm_plan_reads(plan, later));
        *any |= p->pack[k];
        if (p->pack[k] && layout_packed_elems(&p->x[k]) > (long long)MAX_INDEX) {
            *st = bad(fn, "%c: its packed copy for %s needs %lld elements, beyond 32-bit "
                      "indexing", u[k]->name, plan->step->desc.name,
                      layout_packed_elems(&p->x[k]));
            return -1;
        }
    }
    return 0;
}

/* The plan a call runs and what it packs: the row-major problem, the kernel (api_choose),
 * the operands it cannot read in place, and for a batch the build that runs it in one
 * launch.  x: the validated operands. */
static clgemm_status choose_call(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *d,
                                 size_t batch, const user_operand x[3], problem *p,
                                 struct ctx_plan **out, bool *any)
{
    /* The row-major problem: the column-major one read as its transpose, A and B swapped. */
    const bool col = d->layout == CLGEMM_COL_MAJOR;
    const user_operand *ua = &x[col ? 1 : 0], *ub = &x[col ? 0 : 1];
    *p = (problem){ .s = { (int)(col ? d->N : d->M), (int)(col ? d->M : d->N), (int)d->K } };
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
    if ((st = api_choose(fn, ctx, algorithm, d->ab_type, (size_t)p->s.M, (size_t)p->s.N,
                         (size_t)p->s.K, &cp)) != CLGEMM_SUCCESS)
        return st;
    *any = false;
    if (decide_packing(fn, &cp->plan, p, batch, u, any, &st) != 0)
        return st;
    /* A batch that one launch can run gets the plan's batched build (its kernels take the
     * batch in dimension 2; a purpose name's batched build is its best candidate that takes
     * one); where that build cannot run in one launch, the plain one loops. */
    if (batch > 1 && (cp->plan.variant->batched || cp->algo->candidates)) {
        struct ctx_plan *twin = api_batched_twin(ctx, cp);
        if (!twin)
            return api_fail(fn, CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
        problem q = *p;
        bool q_any = false;
        clgemm_status ignored;
        if (twin->status == PLAN_OK &&
            decide_packing(fn, &twin->plan, &q, batch, u, &q_any, &ignored) == 0 &&
            one_launch(&twin->plan, &q)) {
            cp = twin;
            *p = q;
            *any = q_any;
        }
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
    if (!ctx)
        return bad(fn, "NULL context");
    if (!d)
        return bad(fn, "NULL descriptor");
    const size_t batch = d->batch ? d->batch : 1;
    const size_t elem_ab = d->ab_type == CLGEMM_F32 ? sizeof(float) : sizeof(cl_ushort);
    user_operand x[3];
    clgemm_status st = validate(fn, d, batch, elem_ab, x);
    if (st != CLGEMM_SUCCESS)
        return st;

    problem p;
    struct ctx_plan *cp = NULL;
    bool any = false;
    if ((st = choose_call(fn, ctx, d, batch, x, &p, &cp, &any)) != CLGEMM_SUCCESS)
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
    /* Only a call that uses scratch holds on to its queue (for the next call's reuse). */
    if (any || plan->variant->prepass != PREPASS_NONE)
        gemm_scratch_begin(plan, c.q);
    static const int slots[3] = { SCRATCH_LAYOUT_A, SCRATCH_LAYOUT_B, SCRATCH_LAYOUT_C };
    for (int k = 0; k < 3 && rc == 0; k++)
        if (p.pack[k])
            rc = layout_scratch(plan, c.q, slots[k], &p.x[k], &p.packed[k], &e);
    if (rc == 0)
        rc = enqueue_batch(&ctx->layout, plan, &c, &p, d->alpha, d->beta, batch, &e);
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

clgemm_status clgemm_resolve_gemm(clgemm_context *ctx, const clgemm_gemm_desc *desc, char *out,
                                 size_t size)
{
    return gemm_call_resolve(__func__, ctx, desc, out, size);
}

clgemm_status gemm_call_resolve(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *d,
                                char *out, size_t size)
{
    if (!ctx || !d || !out || size == 0)
        return bad(fn, "NULL argument");
    const size_t batch = d->batch ? d->batch : 1;
    const size_t elem_ab = d->ab_type == CLGEMM_F32 ? sizeof(float) : sizeof(cl_ushort);
    user_operand x[3];
    clgemm_status st = validate(fn, d, batch, elem_ab, x);
    if (st != CLGEMM_SUCCESS)
        return st;
    problem p;
    struct ctx_plan *cp = NULL;
    bool any = false;
    if ((st = choose_call(fn, ctx, d, batch, x, &p, &cp, &any)) != CLGEMM_SUCCESS)
        return st;
    return api_describe(fn, cp, out, size);
}
