#include "verify.h"

#include <math.h>
#include <stdio.h>

#include "session.h"
#include "timing.h"

/* The result of one run from the original C, read back for checking. */
static int checked_run(session *s, const run_request *req, workspace *w, const run_row *row,
                       host_matrix *out, errbuf *e)
{
    if (workspace_reset_c(s, req, w, e) != 0 ||
        timing_enqueue(s, req, w, row, NULL, NULL, e) != 0)
        return -1;
    /* A failure while the GEMM ran is reported here, naming clFinish, not as a failed read. */
    CL_TRY(e, clFinish(s->queue));
    return workspace_read_c(s, req, w, out, e);
fail:
    return -1;
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
    row->error = reference_error(ref, out);
    /* Samples miss most entries of a large C; CLBlast's full result covers the rest. */
    if (!ref->full && w->have_baseline && !row->baseline)
        row->error = fmax(row->error, compare_error(&w->A, &w->B, &w->C0, req->alpha, req->beta,
                                                    out, &w->baseline));
    if (isnan(row->error))
        row->error = INFINITY;
    row->status = row->error <= row->tolerance ? ROW_OK : ROW_FAIL;
    if (row->baseline && row->status == ROW_OK)
        w->have_baseline = true;
}
