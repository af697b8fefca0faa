/* Step 10's TF32 pre-pass (prepass_tf32.h).  Two kernels, chosen by how the operand is
 * stored: a rounding copy of a rows x cols matrix (wgmma_tma_round_a), or a rounding
 * transpose of it (wgmma_tma_pack_bt).  The kernel reads A (M x K) and B^T (N x K), both
 * K-major: B of an NN call is transposed, B of an NT call is B^T already and only copied; A
 * the other way round.  A batch is one launch of each, the problem in dimension 2; one
 * problem whose operands both need a pass runs them as one launch (wgmma_tma_pack_two). */
#include "prepass_tf32.h"

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

/* An operand is packed when PACKA / PACKB or SPLIT asks for it, and always when it is not
 * stored K-major (the pass transposes it: A stored K x M, B stored K x N) or when the tensor
 * map could not read it in place (its rows, or its problems, not on 16 bytes; B's not on 32,
 * packs_b).  PACKA=3 reads A stored K x M as it lies (a_regs_t): the call packed a misaligned
 * one beforehand.  With SPLIT it splits A itself, which this pass would round: A is never
 * packed then (the call aligned it, gemm_plan_reads). */
static bool packs(bool asked, bool k_major, gemm_operand X, int stride, const gemm_batch *batch,
                  int align)
{
    return asked || !k_major || ((X.off | X.ld) & (align - 1)) ||
           (batch->count > 1 && (stride & (align - 1)));
}

bool tf32_prepass_packs_a(const gemm_plan *plan, gemm_operand A, const gemm_batch *batch)
{
    if (plan->a_regs && plan->split)
        return false;
    return packs(plan->pack_a, !A.trans || plan->a_regs_t, A, batch->stride[0], batch, 4);
}

static bool packs_b(const gemm_plan *plan, gemm_operand B, const gemm_batch *batch)
{
    /* B read in place (PACKB=2) wants its rows on TMA_FAST_ROW_BYTES, not only 16 (gemm.h;
     * TF32 128x6144x4096 N T 0.061 ms against 0.049 aligned and 0.056 with X packed,
     * probe295). */
    return packs(plan->pack_b, B.trans, B, batch->stride[1], batch,
                 TMA_FAST_ROW_BYTES / (int)sizeof(float));
}

/* Rows of K rounded up to TMA_FAST_ROW_BYTES (the tensor maps need 16 bytes, and read rows 16
 * bytes off 32 slowly, gemm.h); tf32x3 (split) keeps the residuals below the values. */
static int packed_ld(gemm_shape s)
{
    const int v = TMA_FAST_ROW_BYTES / (int)sizeof(float);
    return (s.K + v - 1) / v * v;
}

int tf32_prepass_buffers(const gemm_plan *plan, cl_command_queue q, gemm_shape s,
                         gemm_operand *A, gemm_operand *B, const gemm_batch *batch,
                         gemm_batch *kernel_batch, errbuf *e)
{
    const int ldp = packed_ld(s);
    const size_t plane_a = (size_t)tf32_halves(plan, 0) * (size_t)s.M * (size_t)ldp;
    const size_t plane_b = (size_t)tf32_halves(plan, 1) * (size_t)s.N * (size_t)ldp;
    const size_t planes_a = batch->stride[0] ? (size_t)batch->count : 1;
    const size_t planes_b = batch->stride[1] ? (size_t)batch->count : 1;
    *kernel_batch = *batch;
    cl_mem bt = NULL, ar = NULL;
    if (packs_b(plan, *B, batch)) {
        bt = gemm_scratch_get(plan, q, SCRATCH_TF32_BT, planes_b * plane_b * sizeof(float), e);
        if (!bt)
            return -1;
        kernel_batch->stride[1] = batch->stride[1] ? (int)plane_b : 0;
    }
    if (tf32_prepass_packs_a(plan, *A, batch)) {
        ar = gemm_scratch_get(plan, q, SCRATCH_TF32_A, planes_a * plane_a * sizeof(float), e);
        if (!ar)
            return -1;
        kernel_batch->stride[0] = batch->stride[0] ? (int)plane_a : 0;
    }
    if (bt)
        *B = (gemm_operand){ bt, 0, ldp, false };
    if (ar)
        *A = (gemm_operand){ ar, 0, ldp, false };
    return 0;
}

/* One pre-pass kernel: (rows, cols, source, its offset, its ld, destination, its ld, the
 * source's and the destination's problem strides) in the order of its own loops (round_a:
 * M, K; pack_bt: K, N), over `planes` problems. */
static int enqueue_pass(cl_command_queue q, cl_kernel k, int d0, int d1, gemm_operand from,
                        gemm_operand to, int from_stride, int to_stride, size_t planes,
                        const size_t global2[2], const size_t local2[2], int exact,
                        cl_event *ev, errbuf *e)
{
    const size_t global[3] = { global2[0], global2[1], planes }, local[3] = { local2[0],
                                                                              local2[1], 1 };
    CL_TRY(e, clSetKernelArg(k, 0, sizeof(int), &d0));
    CL_TRY(e, clSetKernelArg(k, 1, sizeof(int), &d1));
    CL_TRY(e, clSetKernelArg(k, 2, sizeof(cl_mem), &from.buf));
    CL_TRY(e, clSetKernelArg(k, 3, sizeof(int), &from.off));
    CL_TRY(e, clSetKernelArg(k, 4, sizeof(int), &from.ld));
    CL_TRY(e, clSetKernelArg(k, 5, sizeof(cl_mem), &to.buf));
    CL_TRY(e, clSetKernelArg(k, 6, sizeof(int), &to.ld));
    CL_TRY(e, clSetKernelArg(k, 7, sizeof(int), &from_stride));
    CL_TRY(e, clSetKernelArg(k, 8, sizeof(int), &to_stride));
    CL_TRY(e, clSetKernelArg(k, 9, sizeof(int), &exact));
    CL_TRY(e, clEnqueueNDRangeKernel(q, k, planes > 1 ? 3 : 2, NULL, global, local, 0, NULL, ev));
    return 0;
fail:
    return -1;
}

/* One pass: a rounding copy (transpose = false) or transpose of the rows x cols matrix
 * `from` into `to`, over `planes` problems; with exact, the values as they are (B for a kernel
 * that splits it itself, b_split_local). */
typedef struct {
    bool transpose;
    int rows, cols;
    gemm_operand from, to;
    int from_stride, to_stride;
    size_t planes;
    int exact;
} tf32_pass;

/* A pass's groups along its columns and its rows: the transpose's 64 x 64 tiles, the
 * rounding copy's 128 values x 8 rows (cl/mma/tf32_pack.h). */
static size_t pass_groups_x(const tf32_pass *p)
{
    return ceil_div((size_t)p->cols, p->transpose ? 64 : 128);
}

static size_t pass_groups_y(const tf32_pass *p)
{
    return ceil_div((size_t)p->rows, p->transpose ? 64 : 8);
}

static int pass(const gemm_plan *plan, cl_command_queue q, const tf32_pass *p, cl_event *ev,
                errbuf *e)
{
    const size_t gx = pass_groups_x(p), gy = pass_groups_y(p);
    if (!p->transpose) {
        const size_t local[2] = { 32, 8 }, global[2] = { gx * 32, gy * 8 };
        return enqueue_pass(q, plan->round_a, p->rows, p->cols, p->from, p->to, p->from_stride,
                            p->to_stride, p->planes, global, local, p->exact, ev, e);
    }
    const size_t local[2] = { 16, 16 }, global[2] = { gx * 16, gy * 16 };
    return enqueue_pass(q, plan->pack_bt, p->rows, p->cols, p->from, p->to, p->from_stride,
                        p->to_stride, p->planes, global, local, p->exact, ev, e);
}

/* Two passes of one problem each as one launch (wgmma_tma_pack_two): one kernel's start and
 * the gap before the next fewer in the call (A's pass never copies exactly).  That pays where
 * the passes are short, and only there: on the H100 (probe271) one launch ran TF32 1024^3 with
 * PACKA=1 in 0.036-0.040 ms against 0.043-0.045 in two, 1000x3000x777 with tight leading
 * dimensions 1-4% faster (12 MiB of operands), 4096^3 PACKA=1 alike (128 MiB), and 4095^3
 * tight 6-9% slower (its rows off 16 bytes read value by value, in a kernel that holds the
 * transpose's local tile in every group).  So operands of more than 32 MiB keep two. */
#define PACK_TWO_MAX_BYTES (32.0 * 1024 * 1024)
static int pass_two(const gemm_plan *plan, cl_command_queue q, const tf32_pass *a,
                    const tf32_pass *b, cl_event *ev, errbuf *e)
{
    /* at most 32 MiB of operands (the caller's bound): a few thousand groups, int-sized */
    const size_t groups0 = pass_groups_x(a) * pass_groups_y(a);
    const size_t groups = groups0 + pass_groups_x(b) * pass_groups_y(b);
    const int t0 = a->transpose, gx0 = (int)pass_groups_x(a), g0 = (int)groups0;
    const int t1 = b->transpose, gx1 = (int)pass_groups_x(b);
    const tf32_pass *ps[2] = { a, b };
    cl_kernel k = plan->pack_two;
    for (int i = 0; i < 2; i++) {
        const tf32_pass *p = ps[i];
        cl_uint arg = i ? 10 : 0; /* pass 0's nine arguments, groups0, pass 1's nine, exact1 */
        CL_TRY(e, clSetKernelArg(k, arg++, sizeof(int), &p->rows));
        CL_TRY(e, clSetKernelArg(k, arg++, sizeof(int), &p->cols));
        CL_TRY(e, clSetKernelArg(k, arg++, sizeof(cl_mem), &p->from.buf));
        CL_TRY(e, clSetKernelArg(k, arg++, sizeof(int), &p->from.off));
        CL_TRY(e, clSetKernelArg(k, arg++, sizeof(int), &p->from.ld));
        CL_TRY(e, clSetKernelArg(k, arg++, sizeof(cl_mem), &p->to.buf));
        CL_TRY(e, clSetKernelArg(k, arg++, sizeof(int), &p->to.ld));
        CL_TRY(e, clSetKernelArg(k, arg++, sizeof(int), i ? &t1 : &t0));
        CL_TRY(e, clSetKernelArg(k, arg++, sizeof(int), i ? &gx1 : &gx0));
    }
    CL_TRY(e, clSetKernelArg(k, 9, sizeof(int), &g0));
    CL_TRY(e, clSetKernelArg(k, 19, sizeof(int), &b->exact));
    const size_t global = groups * 256, local = 256;
    CL_TRY(e, clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, ev));
    return 0;
fail:
    return -1;
}

int tf32_prepass_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s,
                         gemm_operand A, gemm_operand B, const gemm_batch *batch,
                         gemm_operand packed_a, gemm_operand packed_b,
                         const gemm_batch *kernel_batch, cl_event *first, errbuf *e)
{
    const bool pa = tf32_prepass_packs_a(plan, A, batch), pb = packs_b(plan, B, batch);
    /* A is M x K (a copy) or stored K x M (a transpose); B^T is N x K, a copy where B is
     * stored transposed, else B's transpose. */
    const tf32_pass a = { A.trans, A.trans ? s.K : s.M, A.trans ? s.M : s.K, A, packed_a,
                          batch->stride[0], kernel_batch->stride[0],
                          batch->stride[0] ? (size_t)batch->count : 1, 0 };
    const tf32_pass b = { !B.trans, B.trans ? s.N : s.K, B.trans ? s.K : s.N, B, packed_b,
                          batch->stride[1], kernel_batch->stride[1],
                          batch->stride[1] ? (size_t)batch->count : 1, plan->b_split_local };
    if (pa && pb && a.planes == 1 && b.planes == 1 &&
        (double)s.K * ((double)s.M + (double)s.N) * sizeof(float) <= PACK_TWO_MAX_BYTES)
        return pass_two(plan, q, &a, &b, first, e);
    if (pa) {
        if (pass(plan, q, &a, first, e) != 0)
            return -1;
        first = NULL;
    }
    return pb ? pass(plan, q, &b, first, e) : 0;
}
