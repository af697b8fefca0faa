/* The matrices of one run: random inputs (rounded to --dtype), the original C, the host copies
 * results are read back into, their device buffers and, for --dtype f16/bf16, 16-bit copies
 * of A and B.  Made once per run, before any row, so no row's time includes it. */
#ifndef CLGEMM_WORKSPACE_H
#define CLGEMM_WORKSPACE_H

#include <stdbool.h>

#include "clerr.h"
#include "matrix.h"
#include "runner.h"
#include "shape.h"

typedef struct workspace {
    host_matrix A, B, C0, result, baseline;
    cl_mem dA, dB, dC;
    gemm_operand oA, oB, oC;
    cl_mem dA16, dB16; /* 16-bit copies of A and B (--dtype f16/bf16), same layout */
    gemm_operand oA16, oB16;
    bool have_baseline; /* `baseline` holds CLBlast's verified result */
} workspace;

/* 0, or -1 with e set; either way workspace_free releases what was made. */
int workspace_init(session *s, const run_request *req, workspace *w, errbuf *e);
void workspace_free(workspace *w);

/* C on the device back to C0 (a run overwrites it; beta reads it). */
int workspace_reset_c(session *s, const run_request *req, workspace *w, errbuf *e);
/* C from the device into out. */
int workspace_read_c(session *s, const run_request *req, const workspace *w, host_matrix *out,
                     errbuf *e);

#endif
