#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_clblast.h"
#include "check.h"
#include "matrix.h"

#define AUTO_MIN_RUNS 3
#define AUTO_MAX_RUNS 200

struct session {
    const clgemm_device_desc *dev;
    clgemm_context *ctx;
    cl_context cl;
    cl_command_queue queue;
};

const char *row_status_name(row_status s)
{
    static const char *const names[] = { "ok", "FAIL", "unchecked", "unsupported",
                                         "BUILD FAILED", "ERROR" };
    return names[s];
}

run_request run_request_defaults(void)
{
    return (run_request){
        .shape = { 0, 0, 0 },
        .alpha = 1.0f,
        .beta = 0.0f,
        .iters = 0,
        .warmup = 2,
        .min_seconds = 0.5,
        .check = CHECK_AUTO,
        .seed = 42,
        .ld_multiple = 32, /* 128-byte rows: aligned for every vector width we use */
        .offset = 0,
        .progress = false,
        .dtype = CLGEMM_F32,
    };
}

int run_validate(const clgemm_device_desc *dev, const run_request *req, errbuf *e)
{
    const gemm_shape *s = &req->shape;
    const struct {
        const char *name;
        int rows, cols;
    } mats[] = { { "A", s->M, s->K }, { "B", s->K, s->N }, { "C", s->M, s->N } };
    for (size_t i = 0; i < 3; i++) {
        size_t bytes = padded_bytes(mats[i].rows, mats[i].cols, req->ld_multiple) +
                       (size_t)req->offset * sizeof(float);
        if (bytes / sizeof(float) > 0x7fffffffu) {
            err_set(e, "matrix %s (%dx%d) has more than 2^31 elements, beyond 32-bit indexing",
                    mats[i].name, mats[i].rows, mats[i].cols);
            return -1;
        }
        if (bytes > dev->max_alloc) {
            err_set(e, "matrix %s (%dx%d) needs %.1f MiB, more than %s allows in one buffer "
                       "(%.1f MiB)",
                    mats[i].name, mats[i].rows, mats[i].cols, bytes / 1048576.0, dev->name,
                    dev->max_alloc / 1048576.0);
            return -1;
        }
    }
    return 0;
}

session *session_open(size_t device_index, errbuf *e)
{
    session *s = calloc(1, sizeof *s);
    if (!s) {
        err_set(e, "out of host memory");
        return NULL;
    }
    clgemm_status st = clgemm_open_device(device_index, &s->ctx);
    if (st != CLGEMM_SUCCESS) {
        err_set(e, "%s", clgemm_last_error());
        free(s);
        return NULL;
    }
    s->dev = clgemm_device(s->ctx);
    s->cl = clgemm_cl_context(s->ctx);
    s->queue = clgemm_cl_queue(s->ctx);
    return s;
}

void session_close(session *s)
{
    if (!s)
        return;
    /* CLBlast caches programs per context; drop them before the context goes. */
    baseline_clblast_release();
    clgemm_close(s->ctx);
    free(s);
}

/* The buffers and host copies of one run. */
struct workspace {
    host_matrix A, B, C0, result, baseline;
    cl_mem dA, dB, dC;
    gemm_operand oA, oB, oC;
    cl_mem dA16, dB16; /* 16-bit copies of A and B (--dtype f16/bf16), same layout */
    gemm_operand oA16, oB16;
    bool have_baseline;
};

static void workspace_free(struct workspace *w)
{
    host_matrix_free(&w->A);
    host_matrix_free(&w->B);
    host_matrix_free(&w->C0);
    host_matrix_free(&w->result);
    host_matrix_free(&w->baseline);
    if (w->dA)
        clReleaseMemObject(w->dA);
    if (w->dB)
        clReleaseMemObject(w->dB);
    if (w->dC)
        clReleaseMemObject(w->dC);
    if (w->dA16)
        clReleaseMemObject(w->dA16);
    if (w->dB16)
        clReleaseMemObject(w->dB16);
}

/* Rounds a matrix to the 16-bit format in place (padding too: NaN stays NaN). */
static void round_to_dtype(host_matrix *m, clgemm_dtype dtype)
{
    size_t n = host_matrix_bytes(m) / sizeof(float);
    for (size_t i = 0; i < n; i++)
        m->data[i] = clgemm_16bit_to_float(clgemm_float_to_16bit(m->data[i], dtype), dtype);
}

/* A 16-bit copy of a (rounded) matrix in a new buffer, `offset` elements in, with the same
 * leading dimension, so the padding (NaN) travels too. */
static cl_mem upload16(session *s, const host_matrix *m, int offset, clgemm_dtype dtype,
                       errbuf *e)
{
    size_t count = host_matrix_bytes(m) / sizeof(float);
    size_t bytes = (count + (size_t)offset) * sizeof(cl_ushort);
    cl_ushort *bits = calloc(count + (size_t)offset, sizeof(cl_ushort));
    if (!bits) {
        err_set(e, "out of host memory");
        return NULL;
    }
    for (size_t i = 0; i < count; i++)
        bits[(size_t)offset + i] = clgemm_float_to_16bit(m->data[i], dtype);
    cl_int st;
    cl_mem buf = clCreateBuffer(s->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, bits,
                                &st);
    if (!buf)
        err_set(e, "clCreateBuffer(%zu bytes) failed: %s", bytes, cl_error_name(st));
    free(bits);
    return buf;
}

static int upload(cl_command_queue q, cl_mem buf, int offset, const host_matrix *m, errbuf *e)
{
    CL_TRY(e, clEnqueueWriteBuffer(q, buf, CL_TRUE, (size_t)offset * sizeof(float),
                                   host_matrix_bytes(m), m->data, 0, NULL, NULL));
    return 0;
fail:
    return -1;
}

static int download(cl_command_queue q, cl_mem buf, int offset, host_matrix *m, errbuf *e)
{
    CL_TRY(e, clEnqueueReadBuffer(q, buf, CL_TRUE, (size_t)offset * sizeof(float),
                                  host_matrix_bytes(m), m->data, 0, NULL, NULL));
    return 0;
fail:
    return -1;
}

static cl_mem device_matrix(session *s, const host_matrix *m, int offset, errbuf *e)
{
    cl_int st;
    size_t bytes = host_matrix_bytes(m) + (size_t)offset * sizeof(float);
    cl_mem buf = clCreateBuffer(s->cl, CL_MEM_READ_WRITE, bytes, NULL, &st);
    if (!buf)
        err_set(e, "clCreateBuffer(%zu bytes) failed: %s", bytes, cl_error_name(st));
    return buf;
}

static int workspace_init(session *s, const run_request *req, struct workspace *w, errbuf *e)
{
    const gemm_shape *sh = &req->shape;
    int pad = req->ld_multiple;
    if (host_matrix_alloc(&w->A, sh->M, sh->K, pad) || host_matrix_alloc(&w->B, sh->K, sh->N, pad) ||
        host_matrix_alloc(&w->C0, sh->M, sh->N, pad) ||
        host_matrix_alloc(&w->result, sh->M, sh->N, pad) ||
        host_matrix_alloc(&w->baseline, sh->M, sh->N, pad)) {
        err_set(e, "out of host memory for %dx%dx%d matrices", sh->M, sh->N, sh->K);
        return -1;
    }
    host_matrix_fill_random(&w->A, req->seed);
    host_matrix_fill_random(&w->B, req->seed + 1);
    host_matrix_fill_random(&w->C0, req->seed + 2);
    /* Every row, fp32 ones included, computes with the rounded inputs, and so does the
     * reference: the table compares like with like. */
    if (req->dtype != CLGEMM_F32) {
        round_to_dtype(&w->A, req->dtype);
        round_to_dtype(&w->B, req->dtype);
    }
    /* With beta = 0 BLAS promises not to read C: NaN there catches a kernel that does. */
    if (req->beta == 0.0f)
        for (size_t i = 0; i < host_matrix_bytes(&w->C0) / sizeof(float); i++)
            w->C0.data[i] = NAN;
    if (!(w->dA = device_matrix(s, &w->A, req->offset, e)) ||
        !(w->dB = device_matrix(s, &w->B, req->offset, e)) ||
        !(w->dC = device_matrix(s, &w->C0, req->offset, e)))
        return -1;
    if (upload(s->queue, w->dA, req->offset, &w->A, e) ||
        upload(s->queue, w->dB, req->offset, &w->B, e))
        return -1;
    w->oA = (gemm_operand){ w->dA, req->offset, w->A.ld };
    w->oB = (gemm_operand){ w->dB, req->offset, w->B.ld };
    w->oC = (gemm_operand){ w->dC, req->offset, w->C0.ld };
    if (req->dtype != CLGEMM_F32) {
        if (!(w->dA16 = upload16(s, &w->A, req->offset, req->dtype, e)) ||
            !(w->dB16 = upload16(s, &w->B, req->offset, req->dtype, e)))
            return -1;
        w->oA16 = (gemm_operand){ w->dA16, req->offset, w->A.ld };
        w->oB16 = (gemm_operand){ w->dB16, req->offset, w->B.ld };
    }
    return 0;
}

/* One GEMM of either kind.  first/last (optional) bracket the device work for timing: for
 * ours the first command's start (a packing pre-pass where the algorithm has one) and the
 * kernel's end; for CLBlast, which may enqueue several kernels and returns
 * the event of the last one, a marker enqueued just before it opens the bracket. */
static int enqueue_one(session *s, const run_request *req, struct workspace *w,
                       const run_row *row, cl_event *first, cl_event *last, errbuf *e)
{
    if (row->baseline) {
        if (first)
            CL_TRY(e, clEnqueueMarkerWithWaitList(s->queue, 0, NULL, first));
        return baseline_clblast_enqueue(s->queue, req->shape, req->alpha, w->oA, w->oB,
                                        req->beta, w->oC, last, e);
    }
    const gemm_shape *sh = &req->shape;
    clgemm_status st =
        row->bits16
            ? clgemm_gemm_16bit(s->ctx, row->variant, req->dtype, (size_t)sh->M, (size_t)sh->N,
                                (size_t)sh->K, req->alpha, w->oA16.buf, (size_t)w->oA16.off,
                                (size_t)w->oA16.ld, w->oB16.buf, (size_t)w->oB16.off,
                                (size_t)w->oB16.ld, req->beta, w->oC.buf, (size_t)w->oC.off,
                                (size_t)w->oC.ld, NULL, last)
            : clgemm_sgemm_events(s->ctx, row->variant, (size_t)sh->M, (size_t)sh->N,
                                  (size_t)sh->K, req->alpha, w->oA.buf, (size_t)w->oA.off,
                                  (size_t)w->oA.ld, w->oB.buf, (size_t)w->oB.off,
                                  (size_t)w->oB.ld, req->beta, w->oC.buf, (size_t)w->oC.off,
                                  (size_t)w->oC.ld, NULL, last ? first : NULL, last);
    if (st != CLGEMM_SUCCESS) {
        err_set(e, "%s", clgemm_last_error());
        return -1;
    }
    if (row->bits16 && first && last) {
        *first = *last;
        clRetainEvent(*first);
    }
    return 0;
fail:
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double event_ns(cl_event ev, cl_profiling_info what, bool *ok)
{
    cl_ulong t = 0;
    if (clGetEventProfilingInfo(ev, what, sizeof t, &t, NULL) != CL_SUCCESS)
        *ok = false;
    return (double)t;
}

/* Enqueues `count` timed runs back to back, then reads their device times (ms). */
static int timed_batch(session *s, const run_request *req, struct workspace *w,
                       const run_row *row, int count, double *ms, errbuf *e)
{
    cl_event *firsts = calloc((size_t)count, sizeof(cl_event));
    cl_event *lasts = calloc((size_t)count, sizeof(cl_event));
    int rc = -1;
    if (!firsts || !lasts) {
        err_set(e, "out of host memory");
        goto done;
    }
    for (int i = 0; i < count; i++)
        if (enqueue_one(s, req, w, row, &firsts[i], &lasts[i], e) != 0)
            goto done;
    CL_TRY(e, clFinish(s->queue));
    /* For taking a time apart only (bench/, never a reported figure): the GEMM kernel alone,
     * without the pre-pass that some algorithms enqueue before it. */
    const bool last_only = getenv("CLGEMM_TIME_LAST_KERNEL_ONLY") != NULL;
    for (int i = 0; i < count; i++) {
        bool ok = true;
        double end = event_ns(lasts[i], CL_PROFILING_COMMAND_END, &ok);
        double start = event_ns(last_only ? lasts[i] : firsts[i], CL_PROFILING_COMMAND_START, &ok);
        if (!ok) { /* a marker without timestamps: fall back to the last kernel alone */
            ok = true;
            start = event_ns(lasts[i], CL_PROFILING_COMMAND_START, &ok);
        }
        if (!ok) {
            err_set(e, "clGetEventProfilingInfo failed: the queue gives no timestamps");
            goto done;
        }
        ms[i] = (end - start) * 1e-6;
    }
    rc = 0;
fail:
done:
    for (int i = 0; firsts && lasts && i < count; i++) {
        if (firsts[i])
            clReleaseEvent(firsts[i]);
        if (lasts[i])
            clReleaseEvent(lasts[i]);
    }
    free(firsts);
    free(lasts);
    return rc;
}

static int measure(session *s, const run_request *req, struct workspace *w, run_row *row,
                   errbuf *e)
{
    for (int i = 0; i < req->warmup; i++)
        if (enqueue_one(s, req, w, row, NULL, NULL, e) != 0)
            return -1;
    CL_TRY(e, clFinish(s->queue));

    int cap = req->iters > 0 ? req->iters : AUTO_MAX_RUNS;
    double *ms = calloc((size_t)cap, sizeof(double));
    if (!ms) {
        err_set(e, "out of host memory");
        return -1;
    }
    int runs = 0;
    int batch = req->iters > 0 ? req->iters : AUTO_MIN_RUNS;
    double total = 0.0;
    while (batch > 0) {
        if (timed_batch(s, req, w, row, batch, ms + runs, e) != 0) {
            free(ms);
            return -1;
        }
        for (int i = runs; i < runs + batch; i++)
            total += ms[i];
        runs += batch;
        batch = 0;
        if (req->iters == 0 && total < req->min_seconds * 1e3 && runs < cap) {
            double per = total / runs;
            double more = per > 0 ? (req->min_seconds * 1e3 - total) / per : cap;
            batch = (int)fmin(ceil(more), (double)(cap - runs));
        }
    }
    qsort(ms, (size_t)runs, sizeof(double), cmp_double);
    row->runs = runs;
    row->ms_min = ms[0];
    row->ms_median = runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
    row->gflops = 2.0 * req->shape.M * (double)req->shape.N * req->shape.K /
                  (row->ms_median * 1e-3) / 1e9;
    free(ms);
    return 0;
fail:
    return -1;
}

/* The result of one run from the original C, read back for checking. */
static int checked_run(session *s, const run_request *req, struct workspace *w,
                       const run_row *row, host_matrix *out, errbuf *e)
{
    if (upload(s->queue, w->dC, req->offset, &w->C0, e) != 0 ||
        enqueue_one(s, req, w, row, NULL, NULL, e) != 0)
        return -1;
    CL_TRY(e, clFinish(s->queue));
    return download(s->queue, w->dC, req->offset, out, e);
fail:
    return -1;
}

static void progress(const session *s, const run_request *req, const run_row *row)
{
    if (!req->progress)
        return;
    char build[64] = "";
    if (!isnan(row->build_ms))
        snprintf(build, sizeof build, " (built in %.0f ms%s)", row->build_ms,
                 row->from_cache == 1 ? " from cache" : "");
    if (row->runs)
        fprintf(stderr, "clgemm: [%s] %dx%dx%d %-24s %10.3f ms  %s%s\n", s->dev->name,
                req->shape.M, req->shape.N, req->shape.K, row->name, row->ms_median,
                row_status_name(row->status), build);
    else
        fprintf(stderr, "clgemm: [%s] %dx%dx%d %-24s %s %s\n", s->dev->name, req->shape.M,
                req->shape.N, req->shape.K, row->name, row_status_name(row->status),
                row->note);
}

static void run_one(session *s, const run_request *req, struct workspace *w,
                    const reference *ref, run_row *row)
{
    errbuf e = { "" };
    row->error = row->tolerance = row->vs_baseline = row->build_ms = NAN;
    row->from_cache = -1;

    if (row->baseline) {
        if (!baseline_clblast_available()) {
            row->status = ROW_UNSUPPORTED;
            snprintf(row->note, sizeof row->note, "CLBlast unavailable: built without it");
            return;
        }
        snprintf(row->params, sizeof row->params, "CLBlast defaults");
        snprintf(row->precision, sizeof row->precision, "fp32");
        snprintf(row->backend, sizeof row->backend, "clblast");
    } else {
        const gemm_shape *sh = &req->shape;
        bool automatic = strcmp(row->name, AUTO_NAME) == 0;
        /* With --dtype f16/bf16 an algorithm that has a 16-bit kernel runs it on the 16-bit
         * copies, with that kernel's own parameters (the tuning database is for fp32 data);
         * the others (and auto) run on the rounded values as fp32. */
        row->bits16 = req->dtype != CLGEMM_F32 && !automatic &&
                      clgemm_algorithm_has_dtype(row->name, req->dtype);
        if (row->bits16)
            snprintf(row->variant, sizeof row->variant, "%s", row->name);
        else
            clgemm_resolve(s->ctx, automatic ? NULL : row->name, (size_t)sh->M, (size_t)sh->N,
                           (size_t)sh->K, row->variant, sizeof row->variant);
        if (automatic)
            snprintf(row->note, sizeof row->note, "auto chose %s", row->variant);
        clgemm_build_info info;
        clgemm_status st = clgemm_prepare_dtype(s->ctx, row->variant,
                                                row->bits16 ? req->dtype : CLGEMM_F32, &info);
        snprintf(row->params, sizeof row->params, "%s", info.params);
        snprintf(row->precision, sizeof row->precision, "%s", info.precision ? info.precision : "");
        snprintf(row->backend, sizeof row->backend, "%s", info.backend ? info.backend : "");
        row->build_ms = info.build_ms;
        row->from_cache = info.from_cache;
        if (st != CLGEMM_SUCCESS) {
            row->status = st == CLGEMM_ERROR_UNSUPPORTED    ? ROW_UNSUPPORTED
                          : st == CLGEMM_ERROR_BUILD_FAILED ? ROW_BUILD_FAILED
                                                            : ROW_ERROR;
            snprintf(row->note, sizeof row->note, "%s", clgemm_last_error());
            if (info.log)
                row->build_log = strdup(info.log);
            return;
        }
    }

    if (req->check == CHECK_NONE) {
        row->status = ROW_UNCHECKED;
    } else {
        host_matrix *out = row->baseline ? &w->baseline : &w->result;
        if (checked_run(s, req, w, row, out, &e) != 0) {
            row->status = ROW_ERROR;
            snprintf(row->note, sizeof row->note, "%s", e.msg);
            return;
        }
        row->tolerance = tolerance_for_inputs(row->precision, clgemm_dtype_name(req->dtype),
                                              req->shape.K);
        row->error = reference_error(ref, out);
        /* Samples miss most entries of a large C; CLBlast's full result covers the rest. */
        if (!ref->full && w->have_baseline && !row->baseline)
            row->error = fmax(row->error, compare_error(&w->A, &w->B, &w->C0, req->alpha,
                                                        req->beta, out, &w->baseline));
        if (isnan(row->error))
            row->error = INFINITY;
        row->status = row->error <= row->tolerance ? ROW_OK : ROW_FAIL;
        if (row->baseline && row->status == ROW_OK)
            w->have_baseline = true;
    }
    if (measure(s, req, w, row, &e) != 0) {
        row->status = ROW_ERROR;
        row->runs = 0;
        snprintf(row->note, sizeof row->note, "%s", e.msg);
    }
}

int session_run(session *s, const run_request *req, run_result *out, errbuf *e)
{
    memset(out, 0, sizeof *out);
    out->shape = req->shape;
    out->dtype = req->dtype;
    struct workspace w;
    memset(&w, 0, sizeof w);
    reference ref;
    memset(&ref, 0, sizeof ref);

    out->rows = calloc(req->nalgos ? req->nalgos : 1, sizeof *out->rows);
    if (!out->rows) {
        err_set(e, "out of host memory");
        return -1;
    }
    out->nrows = req->nalgos;
    for (size_t i = 0; i < req->nalgos; i++) {
        out->rows[i].name = req->algos[i];
        out->rows[i].baseline = strcmp(req->algos[i], BASELINE_NAME) == 0;
    }

    if (workspace_init(s, req, &w, e) != 0)
        goto fail;

    const gemm_shape *sh = &req->shape;
    unsigned long long macs = (unsigned long long)sh->M * (unsigned long long)sh->N * sh->K;
    bool full = req->check == CHECK_FULL || macs <= CHECK_FULL_LIMIT;
    if (req->check != CHECK_NONE) {
        if (reference_build(&ref, &w.A, &w.B, &w.C0, req->alpha, req->beta, full, req->seed)) {
            err_set(e, "out of host memory for the reference");
            goto fail;
        }
    }

    /* The baseline runs first so its full result can check the others at large sizes. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < req->nalgos; i++) {
            run_row *row = &out->rows[i];
            if (row->baseline != (pass == 0))
                continue;
            run_one(s, req, &w, &ref, row);
            progress(s, req, row);
        }

    const run_row *base = NULL;
    for (size_t i = 0; i < out->nrows; i++)
        if (out->rows[i].baseline && out->rows[i].runs &&
            (out->rows[i].status == ROW_OK || out->rows[i].status == ROW_UNCHECKED))
            base = &out->rows[i];
    for (size_t i = 0; i < out->nrows; i++)
        if (base && out->rows[i].runs)
            out->rows[i].vs_baseline = base->ms_median / out->rows[i].ms_median;

    snprintf(out->check_method, sizeof out->check_method, "%s",
             req->check == CHECK_NONE ? "none (--no-check)"
             : full                   ? "full double-precision reference"
             : w.have_baseline        ? "sampled entries + full comparison with CLBlast"
                                      : "sampled entries (first/last rows and columns, random)");
    reference_free(&ref);
    workspace_free(&w);
    return 0;
fail:
    reference_free(&ref);
    workspace_free(&w);
    run_result_free(out);
    return -1;
}

void run_result_free(run_result *r)
{
    for (size_t i = 0; r->rows && i < r->nrows; i++)
        free(r->rows[i].build_log);
    free(r->rows);
    r->rows = NULL;
    r->nrows = 0;
}

bool run_result_passed(const run_result *r)
{
    for (size_t i = 0; i < r->nrows; i++) {
        row_status st = r->rows[i].status;
        if (st != ROW_OK && st != ROW_UNCHECKED && st != ROW_UNSUPPORTED)
            return false;
    }
    return true;
}
