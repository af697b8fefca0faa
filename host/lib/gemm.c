#include "gemm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "program.h"
#include "tensor_map.h"

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

/* On Hopper (compute capability 9.x) the tensor-core rows run step 10's kernels when they are
 * faster, measured on the H100 (driver 580, 2026-11-22, 4096^3 / 8192^3 TFLOP/s):
 *   tensor_core, f16 / bf16 data: wgmma_tma 664 / 651 (2026-11-23; 444 / 494 within 48 KiB),
 *       else step 9's wgmma 306 / 320, else
 *       its own mma.sync 262 / 257;
 *   tensor_core, fp32 data (TF32): wgmma_tma_packed, B^T rounded to tf32 by a pre-pass and
 *       A truncated by the tensor core (2026-11-23, 227 KiB of local memory: 337 / 352 with
 *       the pre-pass timed, error 3.6e-5 at 4096^3; with A rounded too, PACKA=1, 305 / 345 at
 *       mma.sync's 2.2e-5), else wgmma_tma (B^T from registers: 230 / 230; within 48 KiB
 *       with A rounded, ROUNDA, 169 / 178), against mma.sync 134 / 137;
 *   tensor_core_tf32x3: wgmma_tma_packed_tf32x3 109 / 113 (2026-11-23), else
 *       wgmma_tma_tf32x3 63 / 67, against mma.sync 47 / 47.
 * (bench/results/2026-11-22_nvidia-h100/wgmma_tma/, 2026-11-23_nvidia-h100/; an H200 gave the
 * same order for the 2026-11-22 kernels.)
 * Only with the row's default parameters: explicit ones describe the mma.sync kernel, which
 * then runs.  A refused build (no sm_90a post-pass, no libcuda for the tensor maps) falls to
 * the next choice. */
typedef struct hopper_choice {
    const char *algorithm; /* the row asked for */
    bool bits16;           /* for 16-bit data (else fp32) */
    const char *runs, *overrides;
} hopper_choice;

static const hopper_choice hopper_order[] = {
    { "tensor_core", true, "wgmma_tma", NULL },
    { "tensor_core", true, "wgmma", NULL },
    { "tensor_core", false, "wgmma_tma_packed", NULL },
    { "tensor_core", false, "wgmma_tma", "ROUNDA=1 INFLIGHT=0 STAGES=3" },
    { "tensor_core_tf32x3", false, "wgmma_tma_packed_tf32x3", NULL },
    { "tensor_core_tf32x3", false, "wgmma_tma_tf32x3", NULL },
};

static plan_status plan_create(gemm_plan *plan, cl_context ctx, const device_info *dev,
                               const algo_def *algo, int dtype, const char *overrides,
                               char **log, errbuf *e);
/* The packed operands' buffers, kept by the plan from one enqueue to the next: a fresh
 * buffer per GEMM cost the H100 about 35 us of device time (first touch of new memory), a
 * twelfth of a 4096^3 TF32 GEMM.  Reuse is safe only where the next GEMM cannot start before
 * the last one has read them: the same in-order queue (held, so that its handle cannot come
 * back as another queue's); on any other queue the plan takes new buffers and lets the old
 * ones go when their commands are done. */
struct plan_scratch {
    cl_command_queue queue;
    cl_mem buf[2]; /* B^T, and A rounded */
    size_t bytes[2];
};

static void scratch_drop(struct plan_scratch *sc);

plan_status gemm_plan_create(gemm_plan *plan, cl_context ctx, const device_info *dev,
                             const algo_def *algo, int dtype, const char *overrides,
                             char **log, errbuf *e)
{
    bool defaults = !overrides || !*overrides;
    for (size_t i = 0; defaults && dev->nv_cc_major == 9 &&
                       i < sizeof hopper_order / sizeof hopper_order[0]; i++) {
        const hopper_choice *h = &hopper_order[i];
        if (strcmp(h->algorithm, algo->desc.name) != 0 || h->bits16 != (dtype != 0))
            continue;
        const algo_def *hopper = algo_find(h->runs);
        errbuf ignored = { "" };
        char *wlog = NULL;
        if (hopper && plan_create(plan, ctx, dev, hopper, dtype, h->overrides, &wlog,
                                  &ignored) == PLAN_OK) {
            plan->algo = algo; /* reported as the row asked for; backend and params say what ran */
            *log = NULL;
            free(wlog);
            return PLAN_OK;
        }
        free(wlog);
    }
    return plan_create(plan, ctx, dev, algo, dtype, overrides, log, e);
}

static plan_status plan_create(gemm_plan *plan, cl_context ctx, const device_info *dev,
                               const algo_def *algo, int dtype, const char *overrides,
                               char **log, errbuf *e)
{
    memset(plan, 0, sizeof *plan);
    plan->algo = algo;
    plan->dtype = dtype;
    plan->ld_multiple = algo->desc.ld_multiple;
    *log = NULL;
    /* 16-bit inputs: another file with its own defaults, chosen before the parameters. */
    backend16_choice b16 = { 0 };
    if (dtype != 0) {
        if (backend_choose_16bit(dev, algo, dtype, &b16, e) != 0)
            return PLAN_UNSUPPORTED;
        plan->ld_multiple = b16.ld_multiple;
    }
    if (params_parse(&plan->params, dtype != 0 ? b16.defaults : algo->desc.defaults, e) != 0 ||
        (overrides && params_parse(&plan->params, overrides, e) != 0))
        return PLAN_UNSUPPORTED;

    /* Tile parameters are small integers; anything else (0, negative, beyond int) would hang a
     * K loop or be cut silently, so it is refused before a kernel is built. */
    for (int i = 0; i < plan->params.count; i++)
        if (plan->params.kv[i].value < 0 || plan->params.kv[i].value > 65536) {
            err_set(e, "parameter %s=%ld out of range 0..65536", plan->params.kv[i].key,
                    plan->params.kv[i].value);
            return PLAN_UNSUPPORTED;
        }
    if (params_get(&plan->params, "BK", 1) < 1) {
        err_set(e, "BK must be at least 1");
        return PLAN_UNSUPPORTED;
    }
    plan->bm = (int)params_get(&plan->params, "BM", 1);
    plan->bn = (int)params_get(&plan->params, "BN", 1);
    plan->tm = (int)params_get(&plan->params, "TM", 1);
    plan->tn = (int)params_get(&plan->params, "TN", 1);
    if (plan->bm < 1 || plan->bn < 1 || plan->tm < 1 || plan->tn < 1 || plan->bm % plan->tm ||
        plan->bn % plan->tn) {
        err_set(e, "invalid tile: BM=%d BN=%d must be positive multiples of TM=%d TN=%d",
                plan->bm, plan->bn, plan->tm, plan->tn);
        return PLAN_UNSUPPORTED;
    }
    size_t rows = (size_t)(plan->bm / plan->tm), cols = (size_t)(plan->bn / plan->tn);
    plan->local[0] = algo->rows_on_dim0 ? rows : cols;
    plan->local[1] = algo->rows_on_dim0 ? cols : rows;
    /* Kernels whose work-items do not tile C evenly (a producer warp beside the consumers)
     * name their work-group size: one row of THREADS per block of C. */
    long threads = params_get(&plan->params, "THREADS", 0);
    if (threads > 0) {
        plan->local[0] = (size_t)threads;
        plan->local[1] = 1;
    }
    plan->tma = params_get(&plan->params, "TMA", 0) != 0;
    plan->bk = (int)params_get(&plan->params, "BK", 1);
    size_t wg = plan->local[0] * plan->local[1];
    if (wg > dev->max_work_group) {
        err_set(e, "needs %zu work-items per group, the device allows %zu", wg,
                dev->max_work_group);
        return PLAN_UNSUPPORTED;
    }

    backend_choice backend;
    const char *kernel_name = algo->kernel;
    if (dtype != 0) {
        backend = (backend_choice){ b16.file, b16.name, b16.precision, b16.options };
        kernel_name = b16.kernel;
    } else if (backend_choose(dev, algo, params_get(&plan->params, "SPLIT", 0) != 0, &backend,
                              e) != 0) {
        return PLAN_UNSUPPORTED;
    }
    plan->backend = backend.name;
    plan->precision = backend.precision;
    char *source = kernel_source_load(backend.file, e);
    if (!source)
        return PLAN_ERROR;
    char options[1024];
    char defines[400];
    params_to_defines(&plan->params, defines, sizeof defines);
    const char *extra = getenv("CLGEMM_BUILD_OPTIONS"); /* e.g. -cl-nv-verbose */
    /* Kernels that size their local memory by the device (step 10) read what it really
     * allows from CLGEMM_LOCAL_BYTES. */
    snprintf(options, sizeof options, "%s %s %s -DCLGEMM_LOCAL_BYTES=%llu %s",
             PROGRAM_BASE_OPTIONS, backend.options, defines,
             (unsigned long long)device_local_mem_usable(dev), extra ? extra : "");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool unsupported = false;
    plan->program =
        program_build(ctx, dev, source, options, log, &plan->from_cache, &unsupported, e);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    plan->build_ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
    free(source);
    if (!plan->program)
        return unsupported ? PLAN_UNSUPPORTED : PLAN_BUILD_FAILED;

    cl_int st;
    plan->kernel = clCreateKernel(plan->program, kernel_name, &st);
    if (!plan->kernel) {
        err_set(e, "clCreateKernel(%s) failed: %s", kernel_name, cl_error_name(st));
        gemm_plan_release(plan);
        return PLAN_ERROR;
    }
    /* Local memory is known once the kernel is compiled.  CL_KERNEL_WORK_GROUP_SIZE is not
     * used as a gate: NVIDIA's driver reports 256 for kernels that declare
     * reqd_work_group_size(32, 32, 1) and then runs them correctly at 1024 (measured on an
     * H200, driver 580); a size the device truly refuses fails at enqueue, with its name. */
    if (plan->tma) {
        plan->tma_emulated = dev->nv_cc_major != 9;
        plan->set_maps = clCreateKernel(plan->program, "wgmma_tma_set_maps", &st);
        if (!plan->set_maps) {
            err_set(e, "clCreateKernel(wgmma_tma_set_maps) failed: %s", cl_error_name(st));
            gemm_plan_release(plan);
            return PLAN_ERROR;
        }
    }
    plan->pack_b = plan->tma && dtype == 0 && params_get(&plan->params, "TF32", 0) != 0;
    plan->split = plan->pack_b && params_get(&plan->params, "SPLIT", 0) != 0;
    plan->pack_a = plan->pack_b && (plan->split || params_get(&plan->params, "PACKA", 0) != 0);
    if (plan->pack_b) {
        plan->scratch = calloc(1, sizeof *plan->scratch);
        if (!plan->scratch) {
            err_set(e, "out of host memory");
            gemm_plan_release(plan);
            return PLAN_ERROR;
        }
        plan->pack_bt = clCreateKernel(plan->program, "wgmma_tma_pack_bt", &st);
        if (plan->pack_bt && plan->pack_a)
            plan->round_a = clCreateKernel(plan->program, "wgmma_tma_round_a", &st);
        if (!plan->pack_bt || (plan->pack_a && !plan->round_a)) {
            err_set(e, "clCreateKernel(wgmma_tma pre-pass) failed: %s", cl_error_name(st));
            gemm_plan_release(plan);
            return PLAN_ERROR;
        }
    }
    cl_ulong kernel_local = 0;
    CL_TRY(e, clGetKernelWorkGroupInfo(plan->kernel, dev->id, CL_KERNEL_LOCAL_MEM_SIZE,
                                       sizeof kernel_local, &kernel_local, NULL));
    if (kernel_local > device_local_mem_usable(dev)) {
        err_set(e, "needs %llu bytes of local memory, the device has %llu",
                (unsigned long long)kernel_local,
                (unsigned long long)device_local_mem_usable(dev));
        gemm_plan_release(plan);
        return PLAN_UNSUPPORTED;
    }
    return PLAN_OK;
fail:
    gemm_plan_release(plan);
    return PLAN_ERROR;
}

void gemm_plan_release(gemm_plan *plan)
{
    if (plan->kernel)
        clReleaseKernel(plan->kernel);
    if (plan->set_maps)
        clReleaseKernel(plan->set_maps);
    if (plan->pack_bt)
        clReleaseKernel(plan->pack_bt);
    if (plan->round_a)
        clReleaseKernel(plan->round_a);
    if (plan->program)
        clReleaseProgram(plan->program);
    if (plan->scratch) {
        scratch_drop(plan->scratch);
        free(plan->scratch);
    }
    plan->scratch = NULL;
    plan->kernel = NULL;
    plan->set_maps = NULL;
    plan->pack_bt = NULL;
    plan->round_a = NULL;
    plan->program = NULL;
}

/* The tensor maps of A (M x K, boxes of BM x BK, swizzled at BK values' bytes) and B (K x N,
 * boxes of BK rows x 128 bytes, swizzled at 128) for cl/10_wgmma_tma*.cl, in a new buffer
 * that the queue keeps alive until the kernels have run; their addresses are placeholders
 * that set_maps replaces on the device.  The emulation reads A and B directly and gets
 * zeros. */
static cl_mem tma_maps(const gemm_plan *plan, cl_command_queue q, gemm_shape s,
                       gemm_operand A, gemm_operand B, errbuf *e)
{
    tensor_map maps[2];
    memset(maps, 0, sizeof maps);
    bool real = !plan->tma_emulated && s.K > 0;
    if (real) {
        const int elem = plan->dtype != 0 ? 2 : 4;
        /* tf32x3 (split): packed A and B^T hold the residuals below the values. */
        const uint64_t halves = plan->split ? 2 : 1;
        const tensor_map_shape a = { elem, halves * (uint64_t)s.M, (uint64_t)s.K,
                                     (uint64_t)A.ld, (uint32_t)plan->bm, (uint32_t)plan->bk,
                                     elem * plan->bk };
        /* Packed B^T (N x K): boxes of BN rows x BK, swizzled as A's. */
        const tensor_map_shape b =
            plan->pack_b ? (tensor_map_shape){ elem, halves * (uint64_t)s.N, (uint64_t)s.K,
                                               (uint64_t)B.ld, (uint32_t)plan->bn,
                                               (uint32_t)plan->bk, elem * plan->bk }
                         : (tensor_map_shape){ elem, (uint64_t)s.K, (uint64_t)s.N,
                                               (uint64_t)B.ld, (uint32_t)plan->bk,
                                               (uint32_t)(128 / elem), 128 };
        if (tensor_map_encode(&maps[0], TENSOR_MAP_PLACEHOLDER_ADDRESS, &a, e) != 0 ||
            tensor_map_encode(&maps[1], TENSOR_MAP_PLACEHOLDER_ADDRESS, &b, e) != 0)
            return NULL;
    }
    cl_context ctx;
    cl_int st = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
    cl_mem buf = st == CL_SUCCESS ? clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                                   sizeof maps, maps, &st)
                                  : NULL;
    if (!buf) {
        err_set(e, "clCreateBuffer(tensor maps) failed: %s", cl_error_name(st));
        return NULL;
    }
    if (real) {
        cl_kernel k = plan->set_maps;
        CL_TRY(e, clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
        CL_TRY(e, clSetKernelArg(k, 1, sizeof(cl_mem), &A.buf));
        CL_TRY(e, clSetKernelArg(k, 2, sizeof(int), &A.off));
        CL_TRY(e, clSetKernelArg(k, 3, sizeof(cl_mem), &B.buf));
        CL_TRY(e, clSetKernelArg(k, 4, sizeof(int), &B.off));
        const size_t one = 1;
        CL_TRY(e, clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
    }
    return buf;
fail:
    clReleaseMemObject(buf);
    return NULL;
}

bool gemm_plan_accepts(const gemm_plan *plan, gemm_operand A, gemm_operand B, gemm_operand C,
                       errbuf *e)
{
    int m = plan->ld_multiple;
    if (m > 1 && (A.ld % m || B.ld % m || C.ld % m || A.off % m || B.off % m || C.off % m)) {
        err_set(e, "needs leading dimensions and offsets that are multiples of %d", m);
        return false;
    }
    return true;
}

static void scratch_drop(struct plan_scratch *sc)
{
    for (int b = 0; b < 2; b++) {
        if (sc->buf[b])
            clReleaseMemObject(sc->buf[b]); /* the queue holds it until its commands ran */
        sc->buf[b] = NULL;
        sc->bytes[b] = 0;
    }
    if (sc->queue)
        clReleaseCommandQueue(sc->queue);
    sc->queue = NULL;
}

static cl_mem scratch_get(struct plan_scratch *sc, cl_command_queue q, int which, size_t bytes,
                          errbuf *e)
{
    cl_command_queue_properties props = 0;
    cl_int st = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    const bool in_order = st == CL_SUCCESS && !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    if (sc->queue != q || !in_order) {
        scratch_drop(sc);
        if (in_order) {
            clRetainCommandQueue(q);
            sc->queue = q;
        }
    }
    if (sc->buf[which] && sc->bytes[which] >= bytes)
        return sc->buf[which];
    if (sc->buf[which])
        clReleaseMemObject(sc->buf[which]);
    sc->buf[which] = NULL;
    sc->bytes[which] = 0;
    cl_context ctx;
    st = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
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

/* The packed operands of TF32=1 plans: B^T (N x K, rows of K rounded up to 4 values, 16
 * bytes, as the tensor map needs), and with PACKA A (M x K, the same rows).  *A and *B
 * become them; nothing is enqueued yet. */
static int pack_buffers(const gemm_plan *plan, cl_command_queue q, gemm_shape s,
                        gemm_operand *A, gemm_operand *B, errbuf *e)
{
    const int ldp = (s.K + 3) / 4 * 4;
    const size_t halves = plan->split ? 2 : 1; /* tf32x3: the residuals below the values */
    cl_mem bt = scratch_get(plan->scratch, q, 0,
                            halves * (size_t)s.N * (size_t)ldp * sizeof(float), e);
    if (!bt)
        return -1;
    cl_mem ar = NULL;
    if (plan->pack_a && !(ar = scratch_get(plan->scratch, q, 1,
                                           halves * (size_t)s.M * (size_t)ldp * sizeof(float),
                                           e)))
        return -1;
    *B = (gemm_operand){ bt, 0, ldp };
    if (ar)
        *A = (gemm_operand){ ar, 0, ldp };
    return 0;
}

/* One pre-pass kernel: both take (rows, cols, source, its offset, its ld, destination, its ld)
 * in the order of their own loops (round_a: M, K; pack_bt: K, N). */
static int enqueue_pass(cl_command_queue q, cl_kernel k, int d0, int d1, gemm_operand from,
                        gemm_operand to, const size_t global[2], const size_t local[2],
                        cl_event *ev, errbuf *e)
{
    CL_TRY(e, clSetKernelArg(k, 0, sizeof(int), &d0));
    CL_TRY(e, clSetKernelArg(k, 1, sizeof(int), &d1));
    CL_TRY(e, clSetKernelArg(k, 2, sizeof(cl_mem), &from.buf));
    CL_TRY(e, clSetKernelArg(k, 3, sizeof(int), &from.off));
    CL_TRY(e, clSetKernelArg(k, 4, sizeof(int), &from.ld));
    CL_TRY(e, clSetKernelArg(k, 5, sizeof(cl_mem), &to.buf));
    CL_TRY(e, clSetKernelArg(k, 6, sizeof(int), &to.ld));
    CL_TRY(e, clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, ev));
    return 0;
fail:
    return -1;
}

/* The pre-pass: B^T rounded to tf32 from B into packed B, and with PACKA (or SPLIT) A rounded
 * from A into packed A.  first receives the first kernel's event. */
static int pack_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s,
                        gemm_operand A, gemm_operand B, gemm_operand packed_a,
                        gemm_operand packed_b, cl_event *first, errbuf *e)
{
    if (plan->pack_a) {
        const size_t local[2] = { 32, 8 };
        const size_t global[2] = { ceil_div((size_t)s.K, 128) * 32, ceil_div((size_t)s.M, 8) * 8 };
        if (enqueue_pass(q, plan->round_a, s.M, s.K, A, packed_a, global, local, first, e) != 0)
            return -1;
        first = NULL;
    }
    const size_t local[2] = { 16, 16 };
    const size_t global[2] = { ceil_div((size_t)s.N, 64) * 16, ceil_div((size_t)s.K, 64) * 16 };
    return enqueue_pass(q, plan->pack_bt, s.K, s.N, B, packed_b, global, local, first, e);
}

int gemm_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s, float alpha,
                 gemm_operand A, gemm_operand B, float beta, gemm_operand C, cl_event *first,
                 cl_event *last, errbuf *e)
{
    cl_kernel k = plan->kernel;
    cl_mem maps = NULL;
    cl_event pre = NULL, main_ev = NULL;
    cl_uint i = 0;
    int rc = -1;
    /* K = 0 reads neither operand (C = beta C): nothing to pack. */
    const bool pack = plan->pack_b && s.K > 0;
    const gemm_operand user_a = A, user_b = B;
    if (pack && pack_buffers(plan, q, s, &A, &B, e) != 0)
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
    if (plan->tma) {
        maps = tma_maps(plan, q, s, A, B, e);
        if (!maps)
            goto fail;
        CL_TRY(e, clSetKernelArg(k, i++, sizeof(cl_mem), &maps));
    }
    /* After set_maps (which only needs the packed buffers' addresses), so that the timing
     * bracket holds the pre-pass and not the one-work-item kernel. */
    if (pack && pack_enqueue(plan, q, s, user_a, user_b, A, B, first ? &pre : NULL, e) != 0)
        goto fail;

    size_t tiles_m = ceil_div((size_t)s.M, (size_t)plan->bm);
    size_t tiles_n = ceil_div((size_t)s.N, (size_t)plan->bn);
    size_t global[2];
    if (plan->algo->rows_on_dim0) {
        global[0] = tiles_m * plan->local[0];
        global[1] = tiles_n * plan->local[1];
    } else {
        global[0] = tiles_n * plan->local[0];
        global[1] = tiles_m * plan->local[1];
    }
    CL_TRY(e, clEnqueueNDRangeKernel(q, k, 2, NULL, global, plan->local, 0, NULL,
                                     first || last ? &main_ev : NULL));
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
    if (maps)
        clReleaseMemObject(maps);
    return rc;
}
