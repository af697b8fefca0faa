/* The part of tests/test_correctness.c that every mode shares: one case run and checked
 * against the full reference, the device the cases run on, and the counts of cases and
 * failures each mode prints at its end.  (The modes live in test_correctness.c,
 * test_correctness_layouts.c and test_correctness_skinny.c; see test_correctness.c for what
 * each runs.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "test_correctness.h"
#include "test_device.h"

int cases, failed;

/* One algorithm on one problem, checked against the full reference; what the case was is
 * `what`. */
void run_request_case(session *s, const char *algo, run_request req, const char *what)
{
    const clgemm_dtype dtype = req.dtype;
    const gemm_shape shape = req.shape;
    req.algos = &algo;
    req.nalgos = 1;
    req.iters = 1;
    req.warmup = 0;
    req.check = CHECK_FULL;
    run_result res;
    errbuf e = { "" };
    cases++;
    if (session_run(s, &req, &res, &e) != 0) {
        printf("FAIL %s %s: %s\n", algo, clgemm_dtype_name(dtype), e.msg);
        failed++;
        return;
    }
    const run_row *row = &res.rows[0];
    bool ok = row->status == ROW_OK;
    if (dtype != CLGEMM_F32) /* must have run the 16-bit kernel at that precision */
        ok = ok && row->bits16 && strcmp(row->precision, clgemm_dtype_name(dtype)) == 0;
    failed += !ok;
    printf("%s %-34.34s %-4s %4dx%4dx%4d %s error %.2e (tolerance %.2e, %s) %s %s\n",
           ok ? "ok  " : "FAIL", algo, clgemm_dtype_name(dtype), shape.M, shape.N, shape.K,
           what, row->error, row->tolerance, row->precision,
           ok ? "" : row_status_name(row->status), row->note);
    if (row->build_log)
        printf("%s\n", row->build_log);
    run_result_free(&res);
}

/* The device of $CLGEMM_TEST_DEVICE (else PoCL). */
int open_session(session **s)
{
    size_t index;
    const clgemm_device_desc *dev = test_device("test_correctness", &index);
    if (!dev)
        return -1;
    printf("device: %s (%s)\n", dev->name, dev->platform_name);
    errbuf e = { "" };
    if (!(*s = session_open(index, &e))) {
        fprintf(stderr, "test_correctness: %s\n", e.msg);
        return -1;
    }
    return 0;
}
