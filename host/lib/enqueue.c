/* Enqueueing a plan: step 10's tensor maps and TF32 pre-pass (with the scratch buffers the
 * plan keeps), then the GEMM kernel itself, a strided batch in one launch where the kernel
 * takes one. */
#include "gemm.h"

#include <stdlib.h>
#include <string.h>

#include "prepass_tf32.h"
#include "tensor_map.h"
#include "tma_map_cache.h"

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
    /* Both kernels, whatever PACKA says: a transposed operand may need either. */
    plan->pack_bt = clCreateKernel(plan->program, "wgmma_tma_pack_bt", &st);
    if (plan->pack_bt)
        plan->round_a = clCreateKernel(plan->program, "wgmma_tma_round_a", &st);
    if (!plan->pack_bt || !plan->round_a) {
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
    if (plan->scratch) {
        scratch_drop(plan->scratch);
        free(plan->scratch);
    }
    plan->scratch = NULL;
    plan->pack_bt = plan->round_a = NULL;
}

/* The tensor maps of A and B for cl/10_wgmma_tma.cl, as the operands are stored, a kernel
 * argument by value; their addresses are placeholders that the kernel's producer replaces
 * (TMA_MAPS_PUBLISH: OpenCL does not tell the host a buffer's device address).  A K-major
 * operand (A as M x K, packed B^T, a 16-bit B stored N x K) is read in boxes of BM (BN) rows
 * x BK values swizzled at the row's bytes; an MN-major one (16-bit B as K x N, A stored K x M)
 * in boxes of BK rows x 128 bytes.  A batched build reads 3-D maps, the problem as the third
 * coordinate: a strided operand's map holds the launch's `count` problems, a shared one's
 * (stride 0) its one matrix.  The emulation reads A and B directly and gets zeros. */
static tensor_map_shape k_major(int elem, uint64_t rows, uint64_t cols, int ld, int box_rows,
                                int bk)
{
    return (tensor_map_shape){ elem, rows, cols, (uint64_t)ld, (uint32_t)box_rows,
                               (uint32_t)bk, elem * bk, 0, 0 };
}

static tensor_map_shape mn_major(int elem, int K, int cols, int ld, int bk)
{
    return (tensor_map_shape){ elem, (uint64_t)K, (uint64_t)cols, (uint64_t)ld, (uint32_t)bk,
                               (uint32_t)(128 / elem), 128, 0, 0 };
}

/* A's or B's map as a batched build reads it (see tma_maps). */
static tensor_map_shape batch_of(tensor_map_shape m, const gemm_plan *plan, int count,
                                 int stride)
{
    if (plan->batched) {
        m.depth = stride ? (uint64_t)count : 1;
        m.stride = stride ? (uint64_t)stride : m.rows * m.ld;
    }
    return m;
}

/* C's map for TSTORE (cl/mma/tma_store_tensor.h; on by default for a 16-bit C, so the host
 * maps C whatever the parameters say, and a kernel built without TSTORE ignores it): boxes of
 * 64 rows x 128 bytes, 128-byte swizzle.  Whether the copy engine can store this call's C:
 * only where C is not read (beta 0) and its corner, rows and problems lie on 16 bytes
 * (tensor_map_check_shape), and its rows end on 16 bytes too: on the H100 the engine wrote a
 * row's last 16 bytes whole, past N into the padding (tests/test_layouts).  A batch whose
 * problems share one C (stride 0) is left to the kernel's own stores.  The emulation makes
 * the same choice, so that the tests run both stores. */
static bool c_map_shape(const gemm_plan *plan, gemm_shape s, gemm_operand C, float beta,
                        const gemm_batch *batch, tensor_map_shape *out)
{
    const int elem = plan->build.c_type != 0 ? 2 : 4;
    if (beta != 0.0f || s.K < 1 ||
        ((size_t)C.off * (size_t)elem) % 16 != 0 || ((size_t)s.N * (size_t)elem) % 16 != 0 ||
        (batch->count > 1 && batch->stride[2] == 0))
        return false;
    const tensor_map_shape c = { elem, (uint64_t)s.M, (uint64_t)s.N, (uint64_t)C.ld, 64,
                                 (uint32_t)(128 / elem), 128, 0, 0 };
    *out = batch_of(c, plan, batch->count, batch->stride[2]);
    errbuf ignored = { "" };
    return tensor_map_check_shape(out, &ignored) == 0;
}

/* maps[3]: A's, B's and (where *cmap) C's, passed to the kernel by value. */
static int tma_maps(const gemm_plan *plan, gemm_shape s, gemm_operand A, gemm_operand B,
                    gemm_operand C, float beta, const gemm_batch *batch, cl_int *cmap,
                    tensor_map maps[3], errbuf *e)
{
    memset(maps, 0, 3 * sizeof *maps);
    bool real = !plan->tma_emulated && s.K > 0;
    tensor_map_shape c3;
    *cmap = c_map_shape(plan, s, C, beta, batch, &c3);
    if (real) {
        const int elem = plan->dtype != 0 ? 2 : 4;
        /* tf32x3 (split): packed A and B^T hold the residuals below the values. */
        const uint64_t halves_a = (uint64_t)tf32_halves(plan, 0),
                       halves_b = (uint64_t)tf32_halves(plan, 1);
        const bool packed = plan->variant->prepass == PREPASS_TF32_PACK;
        const tensor_map_shape a =
            (!packed || plan->a_regs_t) && plan->build.trans_a
                ? mn_major(elem, s.K, s.M, A.ld, plan->bk)
                : k_major(elem, halves_a * (uint64_t)s.M, (uint64_t)s.K, A.ld, plan->bm,
                          plan->bk);
        const tensor_map_shape b =
            packed || plan->build.trans_b ? k_major(elem, halves_b * (uint64_t)s.N,
                                                    (uint64_t)s.K, B.ld, plan->bn, plan->bk)
                                          : mn_major(elem, s.K, s.N, B.ld, plan->bk);
        const tensor_map_shape a3 = batch_of(a, plan, batch->count, batch->stride[0]);
        const tensor_map_shape b3 = batch_of(b, plan, batch->count, batch->stride[1]);
        if (tensor_map_encode(&maps[0], TENSOR_MAP_PLACEHOLDER_ADDRESS, &a3, e) != 0 ||
            tensor_map_encode(&maps[1], TENSOR_MAP_PLACEHOLDER_ADDRESS, &b3, e) != 0)
            return -1;
        errbuf ignored = { "" }; /* the kernel's own stores run instead */
        if (*cmap &&
            tensor_map_encode(&maps[2], TENSOR_MAP_PLACEHOLDER_ADDRESS, &c3, &ignored) != 0)
            *cmap = 0;
    }
    return 0;
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
    int map_keep = -1; /* step 10: the keep slot of this call's maps, and whether it holds them */
    bool kept = false;
    tma_map_key keep_key;
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
        cl_int cmap = 0;
        tensor_map maps[3];
        if (tma_maps(plan, s, A, B, C, beta, &kb, &cmap, maps, e) != 0)
            goto fail;
        /* By value: no buffer to create and upload per call (cl/mma/tma.h, tma_maps_arg). */
        CL_TRY(e, clSetKernelArg(k, i++, sizeof maps, maps));
        /* Step 10 takes the split's arguments whether or not it was built to read them. */
        const int len = ks ? ks->len : s.K, ldp = ks ? ks->ldp : 0;
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &len));
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_mem), ks ? &ks->partials : NULL));
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &ldp));
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_mem), ks ? &ks->counts : NULL));
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &batch->count));
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_int), &cmap));
        /* Room for the groups' own copies of the maps (cl/mma/tma.h: map_slot_count slots,
         * each the size of the maps passed above), which each group writes whole before
         * reading: no fill; then the keep slots (tma_map_cache.h).  The emulation reads no
         * map (NULL). */
        const cl_int map_slot_count = 256;
        cl_mem slots = NULL;
        if (!plan->tma_emulated &&
            !(slots = gemm_scratch_get(plan, q, SCRATCH_TMA_MAPS,
                                       (size_t)(map_slot_count + TMA_MAP_KEEP_SLOTS) *
                                           sizeof maps, e)))
            goto fail;
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_int), &map_slot_count));
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_mem), slots ? &slots : NULL));
        /* The maps an earlier call on this queue kept, or the keep slot this one fills. */
        if (slots && s.K > 0) {
            memcpy(keep_key.maps, maps, sizeof maps);
            keep_key.buf[0] = A.buf, keep_key.buf[1] = B.buf, keep_key.buf[2] = C.buf;
            keep_key.off[0] = (size_t)A.off, keep_key.off[1] = (size_t)B.off;
            keep_key.off[2] = (size_t)C.off;
            keep_key.cmap = cmap;
            errbuf unwatched = { "" }; /* then this call publishes, as every call did */
            map_keep = tma_map_cache_find(&plan->scratch->kept_maps, &keep_key, &kept,
                                          &unwatched);
        }
        const cl_int keep_arg = map_keep, kept_arg = kept;
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_int), &keep_arg));
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_int), &kept_arg));
    } else if (plan->variant->split_in_launch) { /* cl/skinny_ksplit.h, read if built so */
        const int len = ks ? ks->len : s.K, ldp = ks ? ks->ldp : 0;
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &len));
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_mem), ks ? &ks->partials : NULL));
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(int), &ldp));
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_mem), ks ? &ks->counts : NULL));
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
    if (map_keep >= 0 && !kept)
        tma_map_cache_written(&plan->scratch->kept_maps, map_keep, &keep_key);
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
