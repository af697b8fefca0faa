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

matrix_geometry workspace_geometry(const run_request *req, char which)
{
    const gemm_shape *s = &req->shape;
    /* stored shapes: op(A) is M x K, so A is M x K (N) or K x M (T); likewise B */
    int rows = which == 'A' ? (req->op_a == CLGEMM_OP_T ? s->K : s->M)
               : which == 'B' ? (req->op_b == CLGEMM_OP_T ? s->N : s->K)
                              : s->M;
    int cols = which == 'A' ? (req->op_a == CLGEMM_OP_T ? s->M : s->K)
               : which == 'B' ? (req->op_b == CLGEMM_OP_T ? s->K : s->N)
                              : s->N;
    return matrix_geometry_of(rows, cols, req->layout == CLGEMM_COL_MAJOR, req->ld_pad,
                              req->ld_multiple);
}

/* Rounds a whole buffer image to the 16-bit format in place (NaN stays NaN). */
static void round_to_dtype(host_matrix *m, clgemm_dtype dtype)
{
    size_t n = host_matrix_buffer_bytes(m) / sizeof(float);
    for (size_t i = 0; i < n; i++)
        m->buf[i] = clgemm_16bit_to_float(clgemm_float_to_16bit(m->buf[i], dtype), dtype);
}

/* A 16-bit copy of a (rounded) buffer image in a new buffer, element for element, so the
 * offset, the padding (NaN) and every copy of the batch travel too. */
static cl_mem upload16(session *s, const host_matrix *m, clgemm_dtype dtype, errbuf *e)
{
    size_t count = host_matrix_buffer_bytes(m) / sizeof(float);
    cl_ushort *bits = malloc(count * sizeof(cl_ushort));
    if (!bits) {
        err_set(e, "out of host memory");
        return NULL;
    }
    for (size_t i = 0; i < count; i++)
        bits[i] = clgemm_float_to_16bit(m->buf[i], dtype);
    cl_int st;
    cl_mem buf = clCreateBuffer(s->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                count * sizeof(cl_ushort), bits, &st);
    if (!buf)
        err_set(e, "clCreateBuffer(%zu bytes) failed: %s", count * sizeof(cl_ushort),
                cl_error_name(st));
    free(bits);
    return buf;
}

static int upload(cl_command_queue q, cl_mem buf, const host_matrix *m, errbuf *e)
{
    CL_TRY(e, clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, host_matrix_buffer_bytes(m), m->buf, 0,
                                   NULL, NULL));
    return 0;
fail:
    return -1;
}

static cl_mem device_matrix(session *s, const host_matrix *m, errbuf *e)
{
    cl_int st;
    size_t bytes = host_matrix_buffer_bytes(m);
    cl_mem buf = clCreateBuffer(s->cl, CL_MEM_READ_WRITE, bytes, NULL, &st);
    if (!buf)
        err_set(e, "clCreateBuffer(%zu bytes) failed: %s", bytes, cl_error_name(st));
    return buf;
}

int workspace_init(session *s, const run_request *req, workspace *w, errbuf *e)
{
    memset(w, 0, sizeof *w);
    const gemm_shape *sh = &req->shape;
    const matrix_geometry ga = workspace_geometry(req, 'A'), gb = workspace_geometry(req, 'B'),
                          gc = workspace_geometry(req, 'C');
    const int batch = req->batch > 0 ? req->batch : 1;
    if (host_matrix_make(&w->A, &ga, batch, req->offset) ||
        host_matrix_make(&w->B, &gb, batch, req->offset) ||
        host_matrix_make(&w->C0, &gc, batch, req->offset) ||
        host_matrix_make(&w->result, &gc, batch, req->offset) ||
        host_matrix_make(&w->baseline, &gc, batch, req->offset)) {
        err_set(e, "out of host memory for %dx%dx%d matrices (batch %d)", sh->M, sh->N, sh->K,
                batch);
        return -1;
    }
    w->A.trans = req->op_a == CLGEMM_OP_T;
    w->B.trans = req->op_b == CLGEMM_OP_T;
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
        host_matrix_fill_nan(&w->C0);
    if (!(w->dA = device_matrix(s, &w->A, e)) || !(w->dB = device_matrix(s, &w->B, e)) ||
        !(w->dC = device_matrix(s, &w->C0, e)))
        return -1;
    if (upload(s->queue, w->dA, &w->A, e) || upload(s->queue, w->dB, &w->B, e))
        return -1;
    w->desc = (clgemm_gemm_desc){
        .layout = req->layout, .op_a = req->op_a, .op_b = req->op_b,
        .M = (size_t)sh->M, .N = (size_t)sh->N, .K = (size_t)sh->K,
        .alpha = req->alpha, .beta = req->beta, .ab_type = CLGEMM_F32,
        .A = w->dA, .off_a = w->A.off, .ld_a = (size_t)w->A.ld, .stride_a = w->A.stride,
        .B = w->dB, .off_b = w->B.off, .ld_b = (size_t)w->B.ld, .stride_b = w->B.stride,
        .C = w->dC, .off_c = w->C0.off, .ld_c = (size_t)w->C0.ld, .stride_c = w->C0.stride,
        .batch = (size_t)batch,
    };
    if (req->dtype != CLGEMM_F32) {
        if (!(w->dA16 = upload16(s, &w->A, req->dtype, e)) ||
            !(w->dB16 = upload16(s, &w->B, req->dtype, e)))
            return -1;
        w->desc16 = w->desc;
        w->desc16.ab_type = req->dtype;
        w->desc16.A = w->dA16;
        w->desc16.B = w->dB16;
    }
    return 0;
}

int workspace_reset_c(session *s, workspace *w, errbuf *e)
{
    return upload(s->queue, w->dC, &w->C0, e);
}

int workspace_read_c(session *s, const workspace *w, host_matrix *out, errbuf *e)
{
    CL_TRY(e, clEnqueueReadBuffer(s->queue, w->dC, CL_TRUE, 0, host_matrix_buffer_bytes(out),
                                  out->buf, 0, NULL, NULL));
    return 0;
fail:
    return -1;
}
