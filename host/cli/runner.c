#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline_clblast.h"
#include "check.h"
#include "cold_l2.h"
#include "session.h"
#include "timing.h"
#include "verify.h"
#include "workspace.h"

const char *row_status_name(row_status s)
{
    static const char *const names[] = { "ok", "FAIL", "unchecked", "unsupported",
                                         "BUILD FAILED", "ERROR" };
    return names[s];
}

const char *layout_name(clgemm_layout layout)
{
    return layout == CLGEMM_COL_MAJOR ? "col" : "row";
}

const char *trans_name(clgemm_op op_a, clgemm_op op_b)
{
    static const char *const names[] = { "NN", "NT", "TN", "TT" };
    return names[(op_a == CLGEMM_OP_T) * 2 + (op_b == CLGEMM_OP_T)];
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
        .layout = CLGEMM_ROW_MAJOR,
        .op_a = CLGEMM_OP_N,
        .op_b = CLGEMM_OP_N,
        .ld_multiple = 32, /* 128-byte lines: aligned for every vector width we use */
        .ld_pad = -1,
        .offset = 0,
        .batch = 1,
        .progress = false,
        .dtype = CLGEMM_F32,
    };
}

int run_validate(const clgemm_device_desc *dev, const run_request *req, errbuf *e)
{
    const char names[] = "ABC";
    const int batch = req->batch > 0 ? req->batch : 1;
    for (size_t i = 0; i < 3; i++) {
        const matrix_geometry g = workspace_geometry(req, names[i]);
        /* the whole buffer: offset, then every problem's padded copy */
        const double elements = matrix_geometry_elements(&g, batch, req->offset);
        const double bytes = elements * sizeof(float);
        char what[96], copies[32] = "";
        if (batch > 1)
            snprintf(copies, sizeof copies, ", batch %d", batch);
        snprintf(what, sizeof what, "matrix %c (%dx%d%s)", names[i], g.rows, g.cols, copies);
        if (elements > 0x7fffffff) {
            err_set(e, "%s has more than 2^31 elements, beyond 32-bit indexing", what);
            return -1;
        }
        if (bytes > (double)dev->max_alloc) {
            err_set(e, "%s needs %.1f MiB, more than %s allows in one buffer (%.1f MiB)", what,
                    bytes / 1048576.0, dev->name, dev->max_alloc / 1048576.0);
            return -1;
        }
    }
    if (req->cold_l2 && COLD_L2_BYTES > dev->max_alloc) {
        err_set(e, "--cold-l2 needs a %.0f MiB buffer to evict the L2; %s allows %.1f MiB in "
                   "one buffer",
                COLD_L2_BYTES / 1048576.0, dev->name, dev->max_alloc / 1048576.0);
        return -1;
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
    else if (row->status == ROW_UNSUPPORTED)
        /* Why is the report's to say (and it says it once); progress only marks the step. */
        fprintf(stderr, "clgemm: [%s] %dx%dx%d %-24s unsupported\n", s->dev->name,
                req->shape.M, req->shape.N, req->shape.K, row->name);
    else
        fprintf(stderr, "clgemm: [%s] %dx%dx%d %-24s %s %s\n", s->dev->name, req->shape.M,
                req->shape.N, req->shape.K, row->name, row_status_name(row->status),
                row->note);
}

static void run_one(session *s, const run_request *req, workspace *w,
                    const reference *ref, run_row *row)
{
    errbuf e = { "" };
    row->error = row->tolerance = row->vs_baseline = row->build_ms = row->gbps = NAN;
    row->from_cache = -1;

    if (row->baseline) {
        if (!baseline_clblast_available()) {
            row->status = ROW_UNSUPPORTED;
            snprintf(row->note, sizeof row->note, "CLBlast unavailable: built without it");
            return;
        }
        snprintf(row->params, sizeof row->params, "CLBlast defaults");
        row->plain = req->c_type != CLGEMM_F32 || req->epilogue != CLGEMM_EPILOGUE_NONE;
        if (row->plain)
            snprintf(row->note, sizeof row->note, "the plain fp32 GEMM of the same shapes: "
                     "CLBlast has no %s", req->c_type != CLGEMM_F32 ? "16-bit C" :
                     "fused epilogue");
        snprintf(row->precision, sizeof row->precision, "fp32");
        snprintf(row->backend, sizeof row->backend, "clblast");
    } else {
        bool automatic = strcmp(row->name, AUTO_NAME) == 0;
        /* With --dtype f16/bf16 an algorithm that has a 16-bit kernel runs it on the 16-bit
         * copies, with that kernel's own parameters (the tuning database is for fp32 data);
         * the others (and auto) run on the rounded values as fp32. */
        row->bits16 = req->dtype != CLGEMM_F32 && !automatic &&
                      clgemm_algorithm_has_dtype(row->name, req->dtype);
        /* What the library will run for exactly this call (the choice depends on the
         * alignment of offsets and leading dimensions, and a batch may run another kernel
         * in one launch); where that fails, the name itself, so that prepare below reports
         * why. */
        clgemm_gemm_desc d = row->bits16 ? w->desc16 : w->desc;
        d.algorithm = automatic ? NULL : row->name;
        if (clgemm_resolve_gemm(s->ctx, &d, row->variant, sizeof row->variant) != CLGEMM_SUCCESS)
            snprintf(row->variant, sizeof row->variant, "%s", automatic ? "" : row->name);
        /* Why: auto always says; a purpose name says where a shape rule chose for it. */
        const char *why = clgemm_resolve_reason();
        if (automatic)
            snprintf(row->note, sizeof row->note, "auto chose %s (%s)", row->variant, why);
        else if (strstr(why, "shape class"))
            snprintf(row->note, sizeof row->note, "runs %s (%s)", row->variant, why);
        /* Built for this call (its transposes, C, epilogue, batch): the plain build of the
         * same name may not exist (step 10's 16-column tile reads only a B stored N x K). */
        clgemm_build_info info;
        clgemm_status st = clgemm_prepare_gemm(s->ctx, &d, &info);
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

    if (req->check == CHECK_NONE)
        row->status = ROW_UNCHECKED;
    else
        verify_row(s, req, w, ref, row);
    if (row->status == ROW_ERROR)
        return;
    if (timing_measure(s, req, w, row, &e) != 0) {
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
    out->c_type = req->c_type;
    out->epilogue = req->epilogue;
    out->layout = req->layout;
    out->op_a = req->op_a;
    out->op_b = req->op_b;
    out->ld_pad = req->ld_pad;
    out->batch = req->batch > 0 ? req->batch : 1;
    out->cold_l2 = req->cold_l2;
    workspace w;
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
        out->rows[i].listed_by_all = req->listed_by_all && req->listed_by_all[i];
    }

    if (workspace_init(s, req, &w, e) != 0)
        goto fail;

    const gemm_shape *sh = &req->shape;
    unsigned long long macs = (unsigned long long)sh->M * (unsigned long long)sh->N * sh->K *
                              (unsigned long long)out->batch;
    bool full = req->check == CHECK_FULL || macs <= CHECK_FULL_LIMIT;
    if (req->check != CHECK_NONE) {
        if (reference_build_epilogue(&ref, &w.A, &w.B, &w.C0, req->alpha, req->beta, &w.epi, full,
                                     req->seed)) {
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
