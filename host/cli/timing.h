/* Running a row on the workspace and timing it from OpenCL profiling events. */
#ifndef CLGEMM_TIMING_H
#define CLGEMM_TIMING_H

#include "clerr.h"
#include "runner.h"
#include "workspace.h"

/* One GEMM of the row (ours or CLBlast's) on the workspace's buffers.  first/last (NULL: not
 * timed) receive events that bracket all of its device work, pre-passes included. */
int timing_enqueue(session *s, const run_request *req, const workspace *w, const run_row *row,
                   cl_event *first, cl_event *last, errbuf *e);

/* Warm-up, then timed runs (req->iters, or enough to fill req->min_seconds); sets the row's
 * runs, ms_median, ms_min and gflops. */
int timing_measure(session *s, const run_request *req, const workspace *w, run_row *row,
                   errbuf *e);

#endif
