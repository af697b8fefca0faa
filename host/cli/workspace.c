#include "workspace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"

void workspace_free(workspace *w)
{
    host_matrix_free(&w->A);
    host_matrix_free(&w->B);
    host_matrix_free(&w->C0);
    host_matrix_free(&w->result);
    host_matrix_free(&w->baseline);
    cl_mem bufs[] = { w->dA, w->dB, w->dC, w->dA16, w->dB16 };
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        if (bufs[i])
            clReleaseMemObject(bufs[i]);
    memset(w, 0, sizeof *w);
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

static cl_mem device_matrix(session *s, const host_matrix *m, int offset, errbuf *e)
{
    cl_int st;
    size_t bytes = host_matrix_bytes(m) + (size_t)offset * sizeof(float);
    cl_mem buf = clCreateBuffer(s->cl, CL_MEM_READ_WRITE, bytes, NULL, &st);
    if (!buf)
        err_set(e, "clCreateBuffer(%zu bytes) failed: %s", bytes, cl_error_name(st));
    return buf;
}

int workspace_init(session *s, const run_request *req, workspace *w, errbuf *e)
{
    memset(w, 0, sizeof *w);
    const gemm_shape *sh = &req->shape;
    int pad = req->ld_multiple;
    if (host_matrix_alloc(&w->A, sh->M, sh->K, pad) ||
        host_matrix_alloc(&w->B, sh->K, sh->N, pad) ||
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

int workspace_reset_c(session *s, const run_request *req, workspace *w, errbuf *e)
{
    return upload(s->queue, w->dC, req->offset, &w->C0, e);
}

int workspace_read_c(session *s, const run_request *req, const workspace *w, host_matrix *out,
                     errbuf *e)
{
    CL_TRY(e, clEnqueueReadBuffer(s->queue, w->dC, CL_TRUE, (size_t)req->offset * sizeof(float),
                                  host_matrix_bytes(out), out->data, 0, NULL, NULL));
    return 0;
fail:
    return -1;
}
