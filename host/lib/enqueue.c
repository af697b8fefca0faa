/* Enqueueing a plan: step 10's tensor maps and TF32 pre-pass (with the scratch buffers the
 * plan keeps), then the GEMM kernel itself, a strided batch in one launch where the kernel
 * takes one. */
#include "gemm.h"

#include <stdlib.h>
#include <string.h>

#include "prepass_tf32.h"
#include "tma_args.h"

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

/* The packed operands' buffers, kept by the plan from one enqueue to the next: a fresh
 * buffer per GEMM costs a first touch of new memory on every call.  Reuse is safe only
 * where the next GEMM cannot start before the last one has read them: the same in-order
 * queue (held, so that its handle cannot come back as another queue's); on any other queue
 * the plan takes new buffers and lets the old ones go when their commands are done.  The
 * layout pre-pass (layout.c) keeps its packed operands in the same slots. */
struct plan_scratch {
    cl_command_queue queue;
    cl_mem buf[SCRATCH_SLOTS];
    size_t bytes[SCRATCH_SLOTS];
    tma_map_cache kept_maps; /* step 10's keep slots, in buf[SCRATCH_TMA_MAPS] */
};

static void scratch_drop(struct plan_scratch *sc);

int prepass_create(gemm_plan *plan, errbuf *e)
{
    cl_int st = CL_SUCCESS;
    plan->tma_emulated = plan->variant->tma && plan->variant->need == NEED_EMULATION;
    /* Every plan may pack operands for the layout pre-pass, so every plan has scratch. */
    plan->scratch = calloc(1, sizeof *plan->scratch);
    if (!plan->scratch) {
        err_set(e, "out of host memory");
        return -1;
    }
    if (plan->variant->prepass != PREPASS_TF32_PACK)
        return 0;
    /* Every pass kernel, whatever PACKA says: a transposed operand may need either, and a
     * call that packs both operands of one problem runs them as one launch (pack_two). */
    plan->pack_bt = clCreateKernel(plan->program, "wgmma_tma_pack_bt", &st);
    if (plan->pack_bt)
        plan->round_a = clCreateKernel(plan->program, "wgmma_tma_round_a", &st);
    if (plan->round_a)
        plan->pack_two = clCreateKernel(plan->program, "wgmma_tma_pack_two", &st);
    if (!plan->pack_bt || !plan->round_a || !plan->pack_two) {
        err_set(e, "clCreateKernel(wgmma_tma pre-pass) failed: %s", cl_error_name(st));
        return -1;
    }
    return 0;
}

void prepass_release(gemm_plan *plan)
{
    if (plan->pack_bt)
        clReleaseKernel(plan->pack_bt);
    if (plan->round_a)
        clReleaseKernel(plan->round_a);
    if (plan->pack_two)
        clReleaseKernel(plan->pack_two);
    if (plan->scratch) {
        scratch_drop(plan->scratch);
        free(plan->scratch);
    }
    plan->scratch = NULL;
    plan->pack_bt = plan->round_a = plan->pack_two = NULL;
}

static void scratch_drop(struct plan_scratch *sc)
{
    tma_map_cache_clear(&sc->kept_maps); /* their slots go with the buffer */
    for (int b = 0; b < SCRATCH_SLOTS; b++) {
        if (sc->buf[b])
            clReleaseMemObject(sc->buf[b]); /* the queue holds it until its commands ran */
        sc->buf[b] = NULL;
        sc->bytes[b] = 0;
    }
    if (sc->queue)
        clReleaseCommandQueue(sc->queue);
    sc->queue = NULL;
}

tma_map_cache *gemm_scratch_kept_maps(const gemm_plan *plan) { return &plan->scratch->kept_maps; }

bool gemm_queue_unordered(cl_command_queue q)
{
    cl_command_queue_properties props = 0;
    cl_int st = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    return st == CL_SUCCESS && (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

int gemm_queue_fence(cl_command_queue q, bool unordered, errbuf *e)
{
    if (unordered)
        CL_TRY(e, clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
    return 0;
fail:
    return -1;
}

void gemm_scratch_begin(const gemm_plan *plan, cl_command_queue q)
{
    struct plan_scratch *sc = plan->scratch;
    if (!sc)
        return;
    /* An out-of-order queue orders nothing between calls: fresh buffers every call. */
    const bool in_order = !gemm_queue_unordered(q);
    if (sc->queue != q || !in_order) {
        scratch_drop(sc);
        if (in_order) {
            clRetainCommandQueue(q);
            sc->queue = q;
        }
    }
}

cl_mem gemm_scratch_get(const gemm_plan *plan, cl_command_queue q, int which, size_t bytes,
                        errbuf *e)
{
    struct plan_scratch *sc = plan->scratch;
    if (sc->buf[which] && sc->bytes[which] >= bytes)
        return sc->buf[which];
    if (sc->buf[which])
        clReleaseMemObject(sc->buf[which]);
    sc->buf[which] = NULL;
    sc->bytes[which] = 0;
    cl_context ctx;
    cl_int st = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    cl_mem buf = st == CL_SUCCESS ? clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &st)
                                  : NULL;
    if (!buf) {
        err_set(e, "clCreateBuffer(%zu bytes of packed operands) failed: %s", bytes,
                cl_error_name(st));
        return NULL;
    }
    sc->buf[which] = buf;
    sc->bytes[which] = bytes;
    return buf;
}

cl_mem gemm_scratch_get_zeroed(const gemm_plan *plan, cl_command_queue q, int which,
                               size_t bytes, errbuf *e)
{
    /* Whether gemm_scratch_get makes a new buffer (not by comparing handles: a released
     * buffer's handle can come back for the new one). */
    const struct plan_scratch *sc = plan->scratch;
    const bool fresh = !sc->buf[which] || sc->bytes[which] < bytes;
    cl_mem buf = gemm_scratch_get(plan, q, which, bytes, e);
    if (buf && fresh) {
        const cl_int zero = 0;
        cl_int st = clEnqueueFillBuffer(q, buf, &zero, sizeof zero, 0, bytes, 0, NULL, NULL);
        if (st != CL_SUCCESS) {
            err_set(e, "clEnqueueFillBuffer(%zu bytes of zeros) failed: %s", bytes,
                    cl_error_name(st));
            return NULL;
        }
    }
    return buf;
}

int gemm_set_split_args(cl_kernel k, cl_uint *i, gemm_shape s, const gemm_ksplit *ks,
                        errbuf *e)
{
    const int len = ks ? ks->len : s.K, ldp = ks ? ks->ldp : 0;
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof(int), &len));
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof(cl_mem), ks ? &ks->partials : NULL));
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof(int), &ldp));
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof(cl_mem), ks ? &ks->counts : NULL));
    return 0;
fail:
    return -1;
}

/* gemm_enqueue, and with ks a GEMM_KSPLIT plan's launch over K's slices. */
static int enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s, float alpha,
                   gemm_operand A, gemm_operand B, float beta, gemm_operand C,
                   gemm_operand bias, const gemm_batch *batch, const gemm_ksplit *ks,
                   cl_event *first, cl_event *last, errbuf *e)
{
    cl_kernel k = plan->kernel;
    cl_event pre = NULL, main_ev = NULL;
    cl_uint i = 0;
    int rc = -1;
    tma_call tma; /* step 10's maps: where this call finds them or keeps them */
    const gemm_batch one = { 1, { 0, 0, 0 } };
    if (!batch)
        batch = &one;
    /* Only a batched kernel knows dimension 2. */
    if (batch->count < 1 || batch->count > GEMM_BATCH_MAX_LAUNCH ||
        (batch->count > 1 && !plan->variant->batched)) {
        err_set(e, "internal: a batch of %d in one launch of %s", batch->count,
                plan->variant->kernel);
        return -1;
    }
    /* K = 0 reads neither operand (C = beta C): nothing to pack. */
    const bool pack = plan->variant->prepass == PREPASS_TF32_PACK && s.K > 0;
    const gemm_operand user_a = A, user_b = B;
    gemm_batch kb = *batch; /* as the kernel sees it: the packed operands' strides */
    if (pack && tf32_prepass_buffers(plan, q, s, &A, &B, batch, &kb, e) != 0)
        goto fail;
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &s.M));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &s.N));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &s.K));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(float), &alpha));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_mem), &A.buf));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &A.off));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &A.ld));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_mem), &B.buf));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &B.off));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &B.ld));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(float), &beta));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_mem), &C.buf));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &C.off));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &C.ld));
    /* A NULL arg_value sets a NULL buffer: the kernel never reads it (cl/epilogue.h). */
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_mem), bias.buf ? &bias.buf : NULL));
    CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &bias.off));
    /* Every kernel takes the strides (a one-problem build ignores them). */
    for (int b = 0; b < 3; b++)
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &kb.stride[b]));
    if (plan->variant->tma) {
        if (tma_set_args(plan, q, k, &i, s, A, B, C, beta, &kb, batch->count, ks, &tma, e) != 0)
            goto fail;
    } else if (plan->variant->split_in_launch) { /* cl/skinny_ksplit.h, read if built so */
        if (gemm_set_split_args(k, &i, s, ks, e) != 0)
            goto fail;
    }
    if (pack && tf32_prepass_enqueue(plan, q, s, user_a, user_b, batch, A, B, &kb,
                                     first ? &pre : NULL, e) != 0)
        goto fail;
    /* An out-of-order queue would start the GEMM before its packed operands. */
    if (pack && gemm_queue_fence(q, gemm_queue_unordered(q), e) != 0)
        goto fail;

    size_t tiles_m = ceil_div((size_t)s.M, (size_t)plan->bm);
    size_t tiles_n = ceil_div((size_t)s.N, (size_t)plan->bn);
    /* Dimension 2 names the problem of a batch (one group deep); a kernel without it keeps
     * the 2-D launch it was written for. */
    size_t global[3], local[3] = { plan->local[0], plan->local[1], 1 };
    if (plan->variant->launch == LAUNCH_TILE_ROWS) {
        global[0] = tiles_m * plan->local[0];
        global[1] = tiles_n * plan->local[1];
    } else {
        global[0] = tiles_n * plan->local[0];
        global[1] = tiles_m * plan->local[1];
    }
    global[2] = ks ? (size_t)ks->parts : (size_t)batch->count;
    /* Step 10's PERSIST=G: G groups per compute unit, each running every Z-th problem of the
     * batch for its tile (cl/10_wgmma_tma.cl), so that one problem's stores overlap the next
     * one's copies; as many groups as that gives, and no fewer than one problem each. */
    const long groups_per_cu = plan->variant->tma ? params_get(&plan->params, "PERSIST", 0) : 0;
    if (!ks && groups_per_cu > 0) {
        const size_t tiles = tiles_m * tiles_n, room = (size_t)groups_per_cu * plan->compute_units;
        const size_t per_group = ceil_div(tiles * (size_t)batch->count, room);
        global[2] = ceil_div((size_t)batch->count, per_group < 1 ? 1 : per_group);
    }
    CL_TRY(e, clEnqueueNDRangeKernel(q, k, plan->variant->batched ? 3 : 2, NULL, global, local,
                                     0, NULL, first || last ? &main_ev : NULL));
    if (plan->variant->tma)
        tma_call_enqueued(plan, &tma);
    if (first) {
        *first = pre ? pre : main_ev;
        if (!pre)
            clRetainEvent(main_ev);
        pre = NULL;
    }
    if (last) {
        *last = main_ev;
        main_ev = NULL;
    }
    rc = 0;
fail:
    /* The queue holds what its commands use until they have run. */
    if (main_ev)
        clReleaseEvent(main_ev);
    if (pre)
        clReleaseEvent(pre);
    return rc;
}

int gemm_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s, float alpha,
                 gemm_operand A, gemm_operand B, float beta, gemm_operand C,
                 gemm_operand bias, const gemm_batch *batch, cl_event *first, cl_event *last,
                 errbuf *e)
{
    return enqueue(plan, q, s, alpha, A, B, beta, C, bias, batch, NULL, first, last, e);
}

int gemm_enqueue_split(const gemm_plan *plan, cl_command_queue q, gemm_shape s, float alpha,
                       gemm_operand A, gemm_operand B, float beta, gemm_operand C,
                       gemm_operand bias, const gemm_ksplit *ks, cl_event *first,
                       cl_event *last, errbuf *e)
{
    if (!plan->ksplit_fused || !plan->variant->batched) {
        err_set(e, "internal: %s was not built to split K in one launch", plan->variant->kernel);
        return -1;
    }
    return enqueue(plan, q, s, alpha, A, B, beta, C, bias, NULL, ks, first, last, e);
}
