/* The layout pre-pass (layout.h): cl/layout.cl built once per context, and the copies that
 * bring a transposed or misaligned operand into the plan's scratch. */
#include "layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"

static size_t ceil_to(size_t a, size_t b) { return (a + b - 1) / b * b; }

void layout_init(layout_pass *lp)
{
    memset(lp, 0, sizeof *lp);
    pthread_mutex_init(&lp->lock, NULL);
}

void layout_release(layout_pass *lp)
{
    for (int t = 0; t < 2; t++) {
        if (lp->copy[t])
            clReleaseKernel(lp->copy[t]);
        if (lp->transpose[t])
            clReleaseKernel(lp->transpose[t]);
        if (lp->pack[t])
            clReleaseKernel(lp->pack[t]);
        if (lp->pack2[t])
            clReleaseKernel(lp->pack2[t]);
        lp->copy[t] = lp->transpose[t] = lp->pack[t] = lp->pack2[t] = NULL;
    }
    if (lp->program)
        clReleaseProgram(lp->program);
    lp->program = NULL;
    free(lp->log);
    lp->log = NULL;
    pthread_mutex_destroy(&lp->lock);
}

plan_status layout_build(layout_pass *lp, cl_context ctx, const device_info *dev)
{
    if (lp->tried)
        return lp->status;
    lp->tried = true;
    errbuf e = { "" };
    lp->status = PLAN_ERROR;
    char *source = kernel_source_load("layout.cl", &e);
    if (source) {
        bool cached = false, unsupported = false;
        lp->program = program_build(ctx, dev, source, PROGRAM_BASE_OPTIONS " -cl-std=CL1.2",
                                    &lp->log, &cached, &unsupported, &e);
        free(source);
        if (!lp->program)
            lp->status = PLAN_BUILD_FAILED;
    }
    static const char *const names[2][4] = {
        { "layout_copy_f32", "layout_transpose_f32", "layout_pack_f32", "layout_pack2_f32" },
        { "layout_copy_u16", "layout_transpose_u16", "layout_pack_u16", "layout_pack2_u16" } };
    for (int t = 0; lp->program && t < 2; t++) {
        cl_int st = CL_SUCCESS;
        cl_kernel *const k[4] = { &lp->copy[t], &lp->transpose[t], &lp->pack[t], &lp->pack2[t] };
        int made = 0;
        while (made < 4 && (*k[made] = clCreateKernel(lp->program, names[t][made], &st)))
            made++;
        if (made < 4) {
            err_set(&e, "clCreateKernel(%s) failed: %s", names[t][made], cl_error_name(st));
            snprintf(lp->why, sizeof lp->why, "layout pre-pass: %s", e.msg);
            return lp->status;
        }
    }
    if (lp->program)
        lp->status = PLAN_OK;
    else
        snprintf(lp->why, sizeof lp->why, "layout pre-pass (cl/layout.cl): %s", e.msg);
    return lp->status;
}

bool layout_reads_transposed(const gemm_plan *plan, int which)
{
    return which == 0 ? plan->build.trans_a : which == 1 ? plan->build.trans_b : false;
}

bool layout_needs_pack(const gemm_plan *plan, int which, const layout_operand *X)
{
    return (X->trans && !layout_reads_transposed(plan, which)) || !gemm_plan_reads(plan, which, X->at);
}

long long layout_packed_elems(const layout_operand *X)
{
    /* X^T is cols x rows. */
    return X->trans ? (long long)X->cols * layout_padded(X->rows)
                    : (long long)X->rows * layout_padded(X->cols);
}

int layout_scratch(const gemm_plan *plan, cl_command_queue q, int slot, const layout_operand *X,
                   int problems, gemm_operand *packed, errbuf *e)
{
    cl_mem buf = gemm_scratch_get(plan, q, slot,
                                  (size_t)problems * (size_t)layout_packed_elems(X) *
                                      (size_t)X->elem,
                                  e);
    if (!buf)
        return -1;
    *packed = (gemm_operand){ buf, 0, (int)layout_padded(X->trans ? X->rows : X->cols), false };
    return 0;
}

/* One copy's arguments of a layout.cl kernel from argument `at` on: (rows, cols, src, its
 * offset, its ld, dst, its offset, its ld, the length of dst's rows to write). */
static int copy_args(cl_kernel k, cl_uint at, int rows, int cols, gemm_operand src,
                     gemm_operand dst, int dst_cols, errbuf *e)
{
    CL_TRY(e, clSetKernelArg(k, at++, sizeof(int), &rows));
    CL_TRY(e, clSetKernelArg(k, at++, sizeof(int), &cols));
    CL_TRY(e, clSetKernelArg(k, at++, sizeof(cl_mem), &src.buf));
    CL_TRY(e, clSetKernelArg(k, at++, sizeof(int), &src.off));
    CL_TRY(e, clSetKernelArg(k, at++, sizeof(int), &src.ld));
    CL_TRY(e, clSetKernelArg(k, at++, sizeof(cl_mem), &dst.buf));
    CL_TRY(e, clSetKernelArg(k, at++, sizeof(int), &dst.off));
    CL_TRY(e, clSetKernelArg(k, at++, sizeof(int), &dst.ld));
    CL_TRY(e, clSetKernelArg(k, at++, sizeof(int), &dst_cols));
    return 0;
fail:
    return -1;
}

/* Problems of a strided batch, copied in one launch: how many, and how far apart they start
 * in the source and in the copy (values). */
typedef struct copies {
    int problems, src_stride, dst_stride;
} copies;

static const copies one_copy = { 1, 0, 0 };

/* One kernel of layout.cl on the copies, under the lock that keeps two threads' arguments
 * apart; the problem is dimension 2 of the range. */
static int enqueue(layout_pass *lp, cl_command_queue q, cl_kernel k, int rows, int cols,
                   gemm_operand src, gemm_operand dst, int dst_cols, copies n,
                   const size_t global2[2], const size_t local2[2], cl_event *ev, errbuf *e)
{
    const size_t global[3] = { global2[0], global2[1], (size_t)n.problems };
    const size_t local[3] = { local2[0], local2[1], 1 };
    int rc = -1;
    pthread_mutex_lock(&lp->lock);
    if (copy_args(k, 0, rows, cols, src, dst, dst_cols, e) != 0)
        goto fail;
    CL_TRY(e, clSetKernelArg(k, 9, sizeof(int), &n.src_stride));
    CL_TRY(e, clSetKernelArg(k, 10, sizeof(int), &n.dst_stride));
    CL_TRY(e, clEnqueueNDRangeKernel(q, k, 3, NULL, global, local, 0, NULL, ev));
    rc = 0;
fail:
    pthread_mutex_unlock(&lp->lock);
    return rc;
}

/* Whether dst's offset, leading dimension and rows are whole vectors of 4 floats or 8 16-bit
 * values (a packed operand always is), so that a work-item moves a vector. */
static bool whole_vectors(int t, gemm_operand dst, int dst_cols)
{
    const int v = t ? 8 : 4;
    return dst.off % v == 0 && dst.ld % v == 0 && dst_cols % v == 0;
}

/* The copy kernels: one work-item per element of dst's rows (padding included), or where
 * whole_vectors, one per vector. */
static int copy(layout_pass *lp, cl_command_queue q, int t, int rows, int cols,
                gemm_operand src, gemm_operand dst, int dst_cols, copies n, cl_event *ev,
                errbuf *e)
{
    const size_t local[2] = { 32, 8 };
    const int v = t ? 8 : 4;
    if (whole_vectors(t, dst, dst_cols) && n.dst_stride % v == 0) {
        const size_t global[2] = { ceil_to((size_t)(dst_cols / v), 32), ceil_to((size_t)rows, 8) };
        return enqueue(lp, q, lp->pack[t], rows, cols, src, dst, dst_cols, n, global, local, ev,
                       e);
    }
    const size_t global[2] = { ceil_to((size_t)dst_cols, 32), ceil_to((size_t)rows, 8) };
    return enqueue(lp, q, lp->copy[t], rows, cols, src, dst, dst_cols, n, global, local, ev, e);
}

int layout_pack(layout_pass *lp, cl_command_queue q, const layout_operand *X, int off,
                int problems, int stride, gemm_operand packed, cl_event *ev, errbuf *e)
{
    const int t = X->elem == 2;
    gemm_operand src = X->at;
    src.off = off;
    const copies n = { problems, stride, problems > 1 ? (int)layout_packed_elems(X) : 0 };
    if (!X->trans)
        return copy(lp, q, t, X->rows, X->cols, src, packed, (int)layout_padded(X->cols), n,
                    ev, e);
    /* 32 x 32 tiles over X's columns (dimension 0) and X^T's padded rows (dimension 1), 8
     * work-items per tile column. */
    const int dst_cols = (int)layout_padded(X->rows);
    const size_t local[2] = { 32, 8 };
    const size_t global[2] = { ceil_to((size_t)X->cols, 32), ceil_to((size_t)dst_cols, 32) / 4 };
    return enqueue(lp, q, lp->transpose[t], X->rows, X->cols, src, packed, dst_cols, n, global,
                   local, ev, e);
}

int layout_unpack(layout_pass *lp, cl_command_queue q, int rows, int cols, int elem,
                  gemm_operand from, gemm_operand to, cl_event *ev, errbuf *e)
{
    return copy(lp, q, elem == 2, rows, cols, from, to, cols, one_copy, ev, e);
}

int layout_pack_both(layout_pass *lp, cl_command_queue q, const layout_operand *A, int off_a,
                     gemm_operand packed_a, const layout_operand *B, int off_b,
                     gemm_operand packed_b, cl_event *ev, cl_event *last, errbuf *e)
{
    const int t = A->elem == 2, v = t ? 8 : 4;
    const int cols_a = (int)layout_padded(A->cols), cols_b = (int)layout_padded(B->cols);
    if (A->trans || B->trans || A->elem != B->elem || !whole_vectors(t, packed_a, cols_a) ||
        !whole_vectors(t, packed_b, cols_b)) {
        if (layout_pack(lp, q, A, off_a, 1, 0, packed_a, ev, e) != 0)
            return -1;
        return layout_pack(lp, q, B, off_b, 1, 0, packed_b, last, e);
    }
    gemm_operand src_a = A->at, src_b = B->at;
    src_a.off = off_a;
    src_b.off = off_b;
    const size_t vecs = (size_t)A->rows * (size_t)(cols_a / v) +
                        (size_t)B->rows * (size_t)(cols_b / v);
    const size_t local[1] = { 256 };
    const size_t global[1] = { ceil_to(vecs, 256) };
    const cl_kernel k = lp->pack2[t];
    int rc = -1;
    pthread_mutex_lock(&lp->lock);
    if (copy_args(k, 0, A->rows, A->cols, src_a, packed_a, cols_a, e) != 0 ||
        copy_args(k, 9, B->rows, B->cols, src_b, packed_b, cols_b, e) != 0)
        goto fail;
    CL_TRY(e, clEnqueueNDRangeKernel(q, k, 1, NULL, global, local, 0, NULL, ev));
    if (last)
        *last = NULL;
    rc = 0;
fail:
    pthread_mutex_unlock(&lp->lock);
    return rc;
}
