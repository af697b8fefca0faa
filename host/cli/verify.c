#include "verify.h"

#include <math.h>
#include <stdio.h>

#include "session.h"
#include "timing.h"

/* The result of one run from the original C, read back for checking: C's whole buffer, so
 * that a write outside its matrices shows. */
static int checked_run(session *s, const run_request *req, workspace *w, const run_row *row,
                       host_matrix *out, errbuf *e)
{
    if (workspace_reset_c(s, w, e) != 0 || timing_enqueue(s, req, w, row, NULL, NULL, e) != 0)
        return -1;
    /* A failure while the GEMM ran is reported here, naming clFinish, not as a failed read. */
    CL_TRY(e, clFinish(s->queue));
    return workspace_read_c(s, w, row->plain, out, e);
fail:
    return -1;
}

/* Says where buffer element `index` of C lies: before the offset, or in which padding. */
static void describe_outside(const host_matrix *c, size_t index, char *buf, size_t size)
{
    if (index < c->off) {
        snprintf(buf, size, "before the offset, element %zu", index);
        return;
    }
    size_t i = index - c->off, within = i % c->stride;
    snprintf(buf, size, "problem %zu, %s %zu, %zu elements into its padding", i / c->stride,
             c->col_major ? "column" : "row", within / (size_t)c->ld,
             within % (size_t)c->ld - (size_t)(c->col_major ? c->rows : c->cols));
}

void verify_row(session *s, const run_request *req, workspace *w, const reference *ref,
                run_row *row)
{
    errbuf e = { "" };
    host_matrix *out = row->baseline ? &w->baseline : &w->result;
    if (checked_run(s, req, w, row, out, &e) != 0) {
        row->status = ROW_ERROR;
        snprintf(row->note, sizeof row->note, "%s", e.msg);
        return;
    }
    row->tolerance = tolerance_for_inputs(row->precision, clgemm_dtype_name(req->dtype),
                                          req->shape.K);
    /* CLBlast's plain row is held to the plain product; the others to the whole operation. */
    if (!row->plain)
        row->tolerance = epilogue_tolerance(req->epilogue, row->tolerance);
    row->error = row->plain ? reference_error_plain(ref, out) : reference_error(ref, out);
    /* Samples miss most entries of a large C; CLBlast's full result covers the rest (its
     * plain values through the epilogue, in double). */
    if (!ref->full && w->have_baseline && !row->baseline)
        row->error = fmax(row->error,
                          compare_error_epilogue(&w->A, &w->B, &w->C0, req->alpha, req->beta,
                                                 &w->epi, out, &w->baseline));
    if (isnan(row->error))
        row->error = INFINITY;
    row->status = row->error <= row->tolerance ? ROW_OK : ROW_FAIL;
    /* Everything of C's buffer outside its matrices (offset, padding, between the problems of
     * a batch) must come back exactly as it went in. */
    size_t first = 0, changed = host_matrix_outside_changes(&w->C0, out, &first);
    if (changed) {
        char where[128];
        describe_outside(&w->C0, first, where, sizeof where);
        row->status = ROW_FAIL;
        snprintf(row->note, sizeof row->note,
                 "wrote %zu element%s outside C's matrices (the first: %s)", changed,
                 changed == 1 ? "" : "s", where);
    }
    if (row->baseline && row->status == ROW_OK)
        w->have_baseline = true;
}
