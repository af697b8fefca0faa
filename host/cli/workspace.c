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
    host_matrix_free(&w->bias);
    cl_mem bufs[] = { w->dA, w->dB, w->dC, w->dA16, w->dB16, w->dC16, w->dBias };
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

/* A (rounded) buffer image as 16-bit values into buf, element for element, so the offset,
 * the padding (NaN) and every copy of the batch travel too. */
static int write16(cl_command_queue q, cl_mem buf, const host_matrix *m, clgemm_dtype dtype,
                   errbuf *e)
{
    size_t count = host_matrix_buffer_bytes(m) / sizeof(float);
    cl_ushort *bits = malloc(count * sizeof(cl_ushort));
    if (!bits) {
        err_set(e, "out of host memory");
        return -1;
    }
    for (size_t i = 0; i < count; i++)
        bits[i] = clgemm_float_to_16bit(m->buf[i], dtype);
    cl_int st = clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, count * sizeof(cl_ushort), bits, 0,
                                     NULL, NULL);
    free(bits);
    if (st != CL_SUCCESS) {
        err_set(e, "clEnqueueWriteBuffer(%zu bytes) failed: %s", count * sizeof(cl_ushort),
                cl_error_name(st));
        return -1;
    }
    return 0;
}

/* The same into a new buffer; NULL with e set. */
static cl_mem upload16(session *s, const host_matrix *m, clgemm_dtype dtype, errbuf *e)
{
    size_t bytes = host_matrix_buffer_bytes(m) / 2;
    cl_int st;
    cl_mem buf = clCreateBuffer(s->cl, CL_MEM_READ_WRITE, bytes, NULL, &st);
    if (!buf) {
        err_set(e, "clCreateBuffer(%zu bytes) failed: %s", bytes, cl_error_name(st));
        return NULL;
    }
    if (write16(s->queue, buf, m, dtype, e) != 0) {
        clReleaseMemObject(buf);
        return NULL;
    }
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

/* --out and --epilogue: the bias (1 x N, random, rounded to C's type, NaN around it as
 * around every operand, at the run's offset), a 16-bit C, and the run's descriptor. */
static int init_epilogue(session *s, const run_request *req, workspace *w, errbuf *e)
{
    w->epi = (c_epilogue){ req->epilogue, req->c_type, NULL };
    w->desc.c_type = req->c_type;
    w->desc.epilogue = req->epilogue;
    if (req->epilogue & 1) {
        const matrix_geometry g = matrix_geometry_of(1, req->shape.N, false, req->ld_pad,
                                                     req->ld_multiple);
        if (host_matrix_make(&w->bias, &g, 1, req->offset) != 0) {
            err_set(e, "out of host memory for the bias");
            return -1;
        }
        host_matrix_fill_random(&w->bias, req->seed + 3);
        if (req->c_type != CLGEMM_F32) {
            round_to_dtype(&w->bias, req->c_type);
            w->dBias = upload16(s, &w->bias, req->c_type, e);
        } else if ((w->dBias = device_matrix(s, &w->bias, e)) != NULL &&
                   upload(s->queue, w->dBias, &w->bias, e) != 0) {
            return -1;
        }
        if (!w->dBias)
            return -1;
        w->epi.bias = w->bias.data;
        w->desc.bias = w->dBias;
        w->desc.off_bias = w->bias.off;
    }
    if (req->c_type != CLGEMM_F32) {
        if (!(w->dC16 = upload16(s, &w->C0, req->c_type, e)))
            return -1;
        w->desc.C = w->dC16;
    }
    return 0;
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
    /* A 16-bit C holds 16-bit values: beta * C reads them so, the reference too. */
    if (req->c_type != CLGEMM_F32)
        round_to_dtype(&w->C0, req->c_type);
    if (!(w->dA = device_matrix(s, &w->A, e)) || !(w->dB = device_matrix(s, &w->B, e)) ||
        !(w->dC = device_matrix(s, &w->C0, e)))
        return -1;
    if (upload(s->queue, w->dA, &w->A, e) || upload(s->queue, w->dB, &w->B, e))
        return -1;
    w->plain = (clgemm_gemm_desc){
        .layout = req->layout, .op_a = req->op_a, .op_b = req->op_b,
        .M = (size_t)sh->M, .N = (size_t)sh->N, .K = (size_t)sh->K,
        .alpha = req->alpha, .beta = req->beta, .ab_type = CLGEMM_F32,
        .A = w->dA, .off_a = w->A.off, .ld_a = (size_t)w->A.ld, .stride_a = w->A.stride,
        .B = w->dB, .off_b = w->B.off, .ld_b = (size_t)w->B.ld, .stride_b = w->B.stride,
        .C = w->dC, .off_c = w->C0.off, .ld_c = (size_t)w->C0.ld, .stride_c = w->C0.stride,
        .batch = (size_t)batch,
    };
    w->desc = w->plain;
    if (init_epilogue(s, req, w, e) != 0)
        return -1;
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
    if (w->dC16 && write16(s->queue, w->dC16, &w->C0, w->epi.c_type, e) != 0)
        return -1;
    return upload(s->queue, w->dC, &w->C0, e);
}

int workspace_read_c(session *s, const workspace *w, bool plain, host_matrix *out, errbuf *e)
{
    if (plain || !w->dC16) {
        CL_TRY(e, clEnqueueReadBuffer(s->queue, w->dC, CL_TRUE, 0,
                                      host_matrix_buffer_bytes(out), out->buf, 0, NULL, NULL));
        return 0;
    }
    const size_t count = host_matrix_buffer_bytes(out) / sizeof(float);
    cl_ushort *bits = malloc(count * sizeof(cl_ushort));
    if (!bits) {
        err_set(e, "out of host memory");
        return -1;
    }
    cl_int st = clEnqueueReadBuffer(s->queue, w->dC16, CL_TRUE, 0, count * sizeof(cl_ushort),
                                    bits, 0, NULL, NULL);
    for (size_t i = 0; st == CL_SUCCESS && i < count; i++)
        out->buf[i] = clgemm_16bit_to_float(bits[i], w->epi.c_type);
    free(bits);
    if (st != CL_SUCCESS) {
        err_set(e, "clEnqueueReadBuffer(C) failed: %s", cl_error_name(st));
        return -1;
    }
    return 0;
fail:
    return -1;
}
