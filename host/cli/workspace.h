/* The matrices of one run: random inputs (rounded to --dtype), the original C, the host copies
 * results are read back into, their device buffers and, for --dtype f16/bf16, 16-bit copies
 * of A and B.  Every buffer holds its matrices as the run asks (layout, transposes, leading
 * dimensions, offset, a batch of copies back to back) with NaN in every other element.  Made
 * once per run, before any row, so no row's time includes it. */
#ifndef CLGEMM_WORKSPACE_H
#define CLGEMM_WORKSPACE_H

#include <stdbool.h>

#include "clerr.h"
#include "clgemm.h"
#include "epilogue_check.h"
#include "matrix.h"
#include "runner.h"
#include "shape.h"

typedef struct workspace {
    host_matrix A, B, C0, result, baseline; /* images of whole buffers (offset included) */
    host_matrix bias; /* 1 x N (--epilogue bias...), NaN around it like the others */
    cl_mem dA, dB, dC;
    cl_mem dA16, dB16; /* 16-bit copies of A and B (--dtype f16/bf16), same layout */
    cl_mem dC16, dBias; /* C of 16-bit values (--out f16/bf16); the bias in C's type */
    /* The call every row makes, on fp32 A and B and on the 16-bit copies (algorithm unset),
     * with the run's C type and epilogue; plain: the fp32 GEMM of the same shapes on dC
     * (CLBlast's row). */
    clgemm_gemm_desc desc, desc16, plain;
    c_epilogue epi; /* for the reference: the epilogue, C's type and the bias's values */
    bool have_baseline; /* `baseline` holds CLBlast's verified result */
} workspace;

/* Where operand 'A', 'B' or 'C' of the request lies in its buffer (one copy). */
matrix_geometry workspace_geometry(const run_request *req, char which);

/* 0, or -1 with e set; either way workspace_free releases what was made. */
int workspace_init(session *s, const run_request *req, workspace *w, errbuf *e);
void workspace_free(workspace *w);

/* C's whole buffers on the device back to C0's image (a run overwrites it; beta reads it). */
int workspace_reset_c(session *s, workspace *w, errbuf *e);
/* C's whole buffer from the device into out (an image shaped like C0): the float C of the
 * plain call, else the run's C (a 16-bit one converted, exactly). */
int workspace_read_c(session *s, const workspace *w, bool plain, host_matrix *out, errbuf *e);

#endif
