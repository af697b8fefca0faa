#include "timing.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "baseline_clblast.h"
#include "cold_l2.h"
#include "session.h"

/* Bounds of the automatic number of timed runs (req->iters == 0). */
#define AUTO_MIN_RUNS 3
#define AUTO_MAX_RUNS 200

/* The bracket: for ours the first command's start (a packing pre-pass where the call needs
 * one) and the last command's end, so every command the call enqueues; for CLBlast, which
 * may enqueue several kernels and returns the event of the last one, a marker enqueued just
 * before it opens the bracket. */
int timing_enqueue(session *s, const run_request *req, const workspace *w, const run_row *row,
                   cl_event *first, cl_event *last, errbuf *e)
{
    (void)req;
    if (row->baseline) {
        if (first)
            CL_TRY(e, clEnqueueMarkerWithWaitList(s->queue, 0, NULL, first));
        return baseline_clblast_enqueue(s->queue, &w->plain, last, e);
    }
    /* The general call with the run's operands: on the 16-bit copies for a row that runs its
     * 16-bit kernel, else on fp32 A and B; "" (auto that resolved to nothing) is NULL. */
    clgemm_gemm_desc d = row->bits16 ? w->desc16 : w->desc;
    d.algorithm = row->variant[0] ? row->variant : NULL;
    if (clgemm_gemm(s->ctx, &d, NULL, last ? first : NULL, last) != CLGEMM_SUCCESS) {
        err_set(e, "%s", clgemm_last_error());
        return -1;
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

/* Enqueues `count` timed runs back to back, then reads their device times (ms).  With an
 * eviction (--cold-l2, cold_l2.c) each run follows one: the queue is in order, so the
 * eviction ends before the run's first command starts, and the events leave it out. */
static int timed_batch(session *s, const run_request *req, const workspace *w,
                       const run_row *row, int count, const cold_l2 *cold, double *ms, errbuf *e)
{
    cl_event *firsts = calloc((size_t)count, sizeof(cl_event));
    cl_event *lasts = calloc((size_t)count, sizeof(cl_event));
    int rc = -1;
    if (!firsts || !lasts) {
        err_set(e, "out of host memory");
        goto done;
    }
    for (int i = 0; i < count; i++) {
        if (cold && cold_l2_enqueue(s, cold, (unsigned)i, e) != 0)
            goto done;
        if (timing_enqueue(s, req, w, row, &firsts[i], &lasts[i], e) != 0)
            goto done;
    }
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

/* Bytes of A, B and C that one GEMM must move at least: each operand read once, C written
 * once, and read once more when beta != 0. */
static double problem_bytes(const run_request *req, const run_row *row)
{
    const double ab = row->bits16 ? 2.0 : 4.0;
    /* CLBlast's row runs the plain GEMM on a float C whatever --out says */
    const double c = row->baseline || req->c_type == CLGEMM_F32 ? 4.0 : 2.0;
    const double M = req->shape.M, N = req->shape.N, K = req->shape.K;
    return (M * K * ab + K * N * ab + M * N * c * (req->beta != 0.0f ? 2.0 : 1.0)) *
           (req->batch > 0 ? req->batch : 1);
}

int timing_measure(session *s, const run_request *req, const workspace *w, run_row *row,
                   errbuf *e)
{
    cold_l2 cold = { 0 };
    double *ms = NULL;
    for (int i = 0; i < req->warmup; i++)
        if (timing_enqueue(s, req, w, row, NULL, NULL, e) != 0)
            return -1;
    CL_TRY(e, clFinish(s->queue));
    if (req->cold_l2 && cold_l2_create(s, &cold, e) != 0)
        return -1;

    int cap = req->iters > 0 ? req->iters : AUTO_MAX_RUNS;
    ms = calloc((size_t)cap, sizeof(double));
    if (!ms) {
        err_set(e, "out of host memory");
        goto fail;
    }
    int runs = 0;
    int batch = req->iters > 0 ? req->iters : AUTO_MIN_RUNS;
    double total = 0.0;
    while (batch > 0) {
        if (timed_batch(s, req, w, row, batch, req->cold_l2 ? &cold : NULL, ms + runs, e) != 0)
            goto fail;
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
    /* every problem of the batch counts */
    row->gflops = 2.0 * req->shape.M * (double)req->shape.N * req->shape.K *
                  (req->batch > 0 ? req->batch : 1) / (row->ms_median * 1e-3) / 1e9;
    row->gbps = problem_bytes(req, row) / (row->ms_median * 1e-3) / 1e9;
    free(ms);
    cold_l2_release(&cold);
    return 0;
fail:
    free(ms);
    cold_l2_release(&cold);
    return -1;
}
