#include "gemm_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api_internal.h"

clgemm_status gemm_check_bad(const char *fn, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "%s", msg);
}

/* "(row-major, op_a T: A is K x M)" */
static void shape_words(const user_operand *x, clgemm_layout layout, char *out, size_t size)
{
    const char *lay = layout == CLGEMM_ROW_MAJOR ? "row-major" : "column-major";
    if (x->op < 0)
        snprintf(out, size, "(%s: %c is %c x %c)", lay, x->name, x->rdim, x->cdim);
    else
        snprintf(out, size, "(%s, op_%c %c: %c is %c x %c)", lay, x->name + 'a' - 'A',
                 x->op == CLGEMM_OP_T ? 'T' : 'N', x->name, x->rdim, x->cdim);
}

/* Buffer, leading dimension, offset, stride: each within 32-bit indexing and the buffer. */
static clgemm_status check_operand(const char *fn, clgemm_layout layout, size_t batch,
                                   user_operand *x)
{
    const char f = (char)(x->name + 'a' - 'A');
    char shape[96];
    shape_words(x, layout, shape, sizeof shape);
    if (!x->buf)
        return gemm_check_bad(fn, "%c: NULL buffer", x->name);
    const bool row = layout == CLGEMM_ROW_MAJOR;
    const size_t line = row ? x->cols : x->rows, lines = row ? x->rows : x->cols;
    if (x->ld < line)
        return gemm_check_bad(fn, "ld_%c %zu < %zu, the length of a stored %s of %c %s", f, x->ld, line,
                   row ? "row" : "column", x->name, shape);
    if (x->ld > MAX_INDEX || x->off > MAX_INDEX || x->stride > MAX_INDEX)
        return gemm_check_bad(fn, "%s_%c %zu beyond 32-bit indexing (at most 2^31-1)",
                   x->ld > MAX_INDEX ? "ld" : x->off > MAX_INDEX ? "off" : "stride", f,
                   x->ld > MAX_INDEX ? x->ld : x->off > MAX_INDEX ? x->off : x->stride);
    /* Below 2^31 each, so none of these products or sums wraps 64 bits. */
    x->extent = (unsigned long long)(lines - 1) * x->ld + line;
    x->end = x->off + (unsigned long long)(batch - 1) * x->stride + x->extent;
    if (x->end > MAX_INDEX)
        return gemm_check_bad(fn, "%c: off_%c + (batch-1) * stride_%c + its extent = %llu elements, "
                   "beyond 32-bit indexing (at most 2^31-1) %s", x->name, f, f, x->end, shape);
    size_t have = 0;
    cl_int err = clGetMemObjectInfo(x->buf, CL_MEM_SIZE, sizeof have, &have, NULL);
    if (err != CL_SUCCESS)
        return gemm_check_bad(fn, "%c: clGetMemObjectInfo failed: %s", x->name, cl_error_name(err));
    if (have / x->elem < x->end)
        return gemm_check_bad(fn, "%c: buffer has %zu bytes, needs %llu (off_%c %zu + (batch-1) * "
                   "stride_%c %zu + %llu elements %s, of %zu bytes)", x->name, have,
                   x->end * x->elem, f, x->off, f, x->stride, x->extent, shape, x->elem);
    return CLGEMM_SUCCESS;
}

/* The bytes of a batch of operands, in terms of its root buffer (a sub-buffer's parent):
 * `count` ranges of `len` bytes, `step` apart, from `first`. */
typedef struct span {
    cl_mem root;
    long long first, len, step, count;
} span;

static span span_of(const user_operand *x, size_t batch)
{
    span s = { x->buf, (long long)(x->off * x->elem), (long long)(x->extent * x->elem),
               (long long)(x->stride * x->elem), (long long)batch };
    cl_mem parent = NULL;
    size_t origin = 0;
    if (clGetMemObjectInfo(x->buf, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) ==
            CL_SUCCESS &&
        parent &&
        clGetMemObjectInfo(x->buf, CL_MEM_OFFSET, sizeof origin, &origin, NULL) == CL_SUCCESS) {
        s.root = parent;
        s.first += (long long)origin;
    }
    return s;
}

/* Whether any range of x shares a byte with any range of y.  C is written while A and B are
 * read: shared bytes give garbage, so they are refused.  Exact for interleaved batches (A[0]
 * C[0] A[1] C[1] ... in one buffer is fine): for each range of x, the first range of y that
 * ends after its start is the only candidate (y's ranges start in order). */
static bool spans_overlap(span x, span y)
{
    if (x.root != y.root)
        return false;
    const long long x_end = x.first + (x.count - 1) * x.step + x.len,
                    y_end = y.first + (y.count - 1) * y.step + y.len;
    if (x_end <= y.first || y_end <= x.first)
        return false;
    for (long long i = 0; i < x.count; i++) {
        const long long lo = x.first + i * x.step, hi = lo + x.len;
        long long j = 0;
        if (y.step > 0 && lo - y.len - y.first >= 0)
            j = (lo - y.len - y.first) / y.step + 1; /* y's range j ends after lo */
        if (j < y.count && y.first + j * y.step < hi && y.first + j * y.step + y.len > lo)
            return true;
        if (x.step == 0)
            break;
    }
    return false;
}

/* The bias: there exactly when the epilogue adds one, N elements of C's type in its buffer,
 * apart from every C of the batch (C is written while the bias is read). */
static clgemm_status check_bias(const char *fn, const clgemm_gemm_desc *d, size_t elem_c,
                                span sc)
{
    const bool wants = (d->epilogue & 1) != 0;
    if (!wants) {
        if (d->bias)
            return gemm_check_bad(fn, "bias: a buffer is given but epilogue %s adds none (NULL, "
                                  "or a _BIAS epilogue)", clgemm_epilogue_name(d->epilogue));
        if (d->off_bias)
            return gemm_check_bad(fn, "off_bias %zu without a bias (epilogue %s)", d->off_bias,
                                  clgemm_epilogue_name(d->epilogue));
        return CLGEMM_SUCCESS;
    }
    if (!d->bias)
        return gemm_check_bad(fn, "bias: NULL buffer, but epilogue %s adds a bias of N values",
                              clgemm_epilogue_name(d->epilogue));
    if (d->off_bias > MAX_INDEX || d->off_bias + d->N > MAX_INDEX)
        return gemm_check_bad(fn, "off_bias %zu + N %zu beyond 32-bit indexing (at most 2^31-1)",
                              d->off_bias, d->N);
    size_t have = 0;
    cl_int err = clGetMemObjectInfo(d->bias, CL_MEM_SIZE, sizeof have, &have, NULL);
    if (err != CL_SUCCESS)
        return gemm_check_bad(fn, "bias: clGetMemObjectInfo failed: %s", cl_error_name(err));
    if (have / elem_c < d->off_bias + d->N)
        return gemm_check_bad(fn, "bias: buffer has %zu bytes, needs %zu (off_bias %zu + N %zu "
                              "elements of %s, %zu bytes each)", have,
                              (d->off_bias + d->N) * elem_c, d->off_bias, d->N,
                              clgemm_dtype_name(d->c_type), elem_c);
    const user_operand b = { 'b', d->bias, d->off_bias, d->N, 0, 1, d->N, '1', 'N', -1, elem_c,
                             d->N, d->off_bias + d->N };
    if (spans_overlap(sc, span_of(&b, 1)))
        return gemm_check_bad(fn, "bias overlaps C in the same buffer (C is written while the "
                              "bias is read)");
    return CLGEMM_SUCCESS;
}

clgemm_status gemm_check(const char *fn, const clgemm_gemm_desc *d, size_t batch,
                              size_t elem_ab, user_operand x[3])
{
    if ((unsigned)d->layout > CLGEMM_COL_MAJOR)
        return gemm_check_bad(fn, "layout %d is neither CLGEMM_ROW_MAJOR nor CLGEMM_COL_MAJOR",
                   (int)d->layout);
    if ((unsigned)d->op_a > CLGEMM_OP_T || (unsigned)d->op_b > CLGEMM_OP_T)
        return gemm_check_bad(fn, "%s %d is neither CLGEMM_OP_N nor CLGEMM_OP_T",
                   (unsigned)d->op_a > CLGEMM_OP_T ? "op_a" : "op_b",
                   (int)((unsigned)d->op_a > CLGEMM_OP_T ? d->op_a : d->op_b));
    const size_t sizes[3] = { d->M, d->N, d->K };
    for (int i = 0; i < 3; i++)
        if (sizes[i] < 1 || sizes[i] > MAX_INDEX)
            return gemm_check_bad(fn, "%c %zu out of range 1..2^31-1", "MNK"[i], sizes[i]);
    if (batch > MAX_INDEX)
        return gemm_check_bad(fn, "batch %zu out of range 0..2^31-1", batch);
    if (!clgemm_dtype_name(d->ab_type))
        return gemm_check_bad(fn, "ab_type %d is not a clgemm_dtype (CLGEMM_F32, CLGEMM_F16, CLGEMM_BF16)",
                   (int)d->ab_type);
    if (!clgemm_dtype_name(d->c_type))
        return gemm_check_bad(fn, "c_type %d is not a clgemm_dtype (CLGEMM_F32, CLGEMM_F16, CLGEMM_BF16)",
                   (int)d->c_type);
    if (!clgemm_epilogue_name(d->epilogue))
        return gemm_check_bad(fn, "epilogue %d is not a clgemm_epilogue (CLGEMM_EPILOGUE_NONE .. "
                              "CLGEMM_EPILOGUE_BIAS_GELU)", (int)d->epilogue);
    const bool ta = d->op_a == CLGEMM_OP_T, tb = d->op_b == CLGEMM_OP_T;
    x[0] = (user_operand){ 'A', d->A, d->off_a, d->ld_a, d->stride_a, ta ? d->K : d->M,
                           ta ? d->M : d->K, ta ? 'K' : 'M', ta ? 'M' : 'K', d->op_a, elem_ab,
                           0, 0 };
    x[1] = (user_operand){ 'B', d->B, d->off_b, d->ld_b, d->stride_b, tb ? d->N : d->K,
                           tb ? d->K : d->N, tb ? 'N' : 'K', tb ? 'K' : 'N', d->op_b, elem_ab,
                           0, 0 };
    const size_t elem_c = d->c_type == CLGEMM_F32 ? sizeof(float) : sizeof(cl_ushort);
    x[2] = (user_operand){ 'C', d->C, d->off_c, d->ld_c, d->stride_c, d->M, d->N, 'M', 'N', -1,
                           elem_c, 0, 0 };
    clgemm_status st;
    for (int i = 0; i < 3; i++)
        if ((st = check_operand(fn, d->layout, batch, &x[i])) != CLGEMM_SUCCESS)
            return st;
    if (batch > 1 && x[2].stride < x[2].extent)
        return gemm_check_bad(fn, "stride_c %zu < %llu, the extent of one C: C[i] would overlap C[i+1]",
                   x[2].stride, x[2].extent);
    const span sc = span_of(&x[2], batch);
    for (int i = 0; i < 2; i++)
        if (spans_overlap(sc, span_of(&x[i], batch)))
            return gemm_check_bad(fn, "C overlaps %c in the same buffer (C is written while %c is read)",
                       x[i].name, x[i].name);
    return check_bias(fn, d, elem_c, sc);
}

