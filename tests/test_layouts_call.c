/* One call of test_layouts (tests/test_layouts.c says what is checked and why): its operands
 * laid out in buffers full of NaN around their windows, clgemm_gemm (or a fixed-layout
 * wrapper) run on them, and C checked against a double reference, outside its windows too,
 * with the events and the pre-passes the spec asks for. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "test_layouts.h"

clgemm_context *ctx;
cl_context cl;
int runs, failures;

/* One operand: where its stored elements lie. */
typedef struct operand {
    size_t rows, cols;    /* op(X) */
    bool trans;
    size_t off, ld, stride, extent, elems, elem;
} operand;

static uint32_t rng = 12345;
static float uniform(bool coarse)
{
    rng = rng * 1664525u + 1013904223u;
    return coarse ? (float)((int)((rng >> 8) % 9) - 4) / 4.0f
                  : (float)((rng >> 8) & 0xffff) / 32768.0f - 1.0f;
}

/* The element index of op(X)(i, j) of batch entry b. */
static size_t at(const operand *x, clgemm_layout layout, size_t b, size_t i, size_t j)
{
    size_t r = x->trans ? j : i, c = x->trans ? i : j; /* stored (r, c) */
    return x->off + b * x->stride + (layout == CLGEMM_ROW_MAJOR ? r * x->ld + c : c * x->ld + r);
}

static void place(operand *x, const spec *s, size_t rows, size_t cols, bool trans, size_t elem,
                  size_t pad, size_t off, bool shared)
{
    x->rows = rows;
    x->cols = cols;
    x->trans = trans;
    x->elem = elem;
    const size_t srows = trans ? cols : rows, scols = trans ? rows : cols;
    const size_t line = s->layout == CLGEMM_ROW_MAJOR ? scols : srows;
    const size_t lines = s->layout == CLGEMM_ROW_MAJOR ? srows : scols;
    const size_t a = (size_t)s->aligned;
    x->ld = a ? (line + a - 1) / a * a + a : line + (s->padded ? pad : 0);
    x->off = a ? a : s->padded ? off : 0;
    x->extent = (lines - 1) * x->ld + line;
    x->stride = s->batch <= 1 || (shared && !s->strided_a) ? 0
                : a ? (x->extent + 2 * a - 1) / a * a   /* past the extent, a or more */
                             : (x->extent + 2) | 1;       /* odd, past the extent */
    x->elems = x->off + (s->batch ? s->batch - 1 : 0) * x->stride + x->extent + 5;
}

static cl_mem upload(const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)host,
                              &err);
    if (!m) {
        fprintf(stderr, "clCreateBuffer failed: %d\n", err);
        exit(1);
    }
    return m;
}

static void describe(const spec *s, char *out, size_t size)
{
    snprintf(out, size, "%s %c%c %zux%zux%zu %s %s batch %zu %s beta %g%s",
             s->layout == CLGEMM_ROW_MAJOR ? "row" : "col", s->op_a ? 'T' : 'N',
             s->op_b ? 'T' : 'N', s->M, s->N, s->K, s->algorithm ? s->algorithm : "auto",
             s->aligned ? (s->strided_a ? "aligned, A strided" : "aligned")
             : s->padded ? "padded"
                         : "tight",
             s->batch ? s->batch : 1, clgemm_dtype_name(s->dtype), (double)s->beta,
             s->wrapper ? " (wrapper)" : "");
}

/* Runs one call and checks it; returns 0 when it holds. */
int run(const spec *s)
{
    char what[160];
    describe(s, what, sizeof what);
    runs++;
    const size_t batch = s->batch ? s->batch : 1;
    const bool h = s->dtype != CLGEMM_F32;
    const size_t eab = h ? 2 : 4;
    operand A, B, C;
    place(&A, s, s->M, s->K, s->op_a == CLGEMM_OP_T, eab, 3, 7, true);
    place(&B, s, s->K, s->N, s->op_b == CLGEMM_OP_T, eab, 5, 3, false);
    place(&C, s, s->M, s->N, false, 4, 1, 5, false);
    /* NaN everywhere, then the windows. */
    const uint16_t nan16 = s->dtype == CLGEMM_F16 ? 0x7e00 : 0x7fc0;
    float *a = malloc(A.elems * 4), *b = malloc(B.elems * 4), *c = malloc(C.elems * 4),
          *c0 = malloc(C.elems * 4), *got = malloc(C.elems * 4);
    uint16_t *a16 = malloc(A.elems * 2), *b16 = malloc(B.elems * 2);
    for (size_t i = 0; i < A.elems; i++)
        a[i] = NAN, a16[i] = nan16;
    for (size_t i = 0; i < B.elems; i++)
        b[i] = NAN, b16[i] = nan16;
    for (size_t i = 0; i < C.elems; i++)
        c[i] = NAN;
    operand *ops[2] = { &A, &B };
    float *vals[2] = { a, b };
    uint16_t *bits[2] = { a16, b16 };
    for (int o = 0; o < 2; o++)
        for (size_t e = 0; e < batch; e++)
            for (size_t i = 0; i < ops[o]->rows; i++)
                for (size_t j = 0; j < ops[o]->cols; j++) {
                    const size_t k = at(ops[o], s->layout, e, i, j);
                    float v = uniform(s->coarse);
                    if (h) {
                        bits[o][k] = clgemm_float_to_16bit(v, s->dtype);
                        v = clgemm_16bit_to_float(bits[o][k], s->dtype);
                    }
                    vals[o][k] = v;
                }
    if (s->beta != 0.0f)
        for (size_t e = 0; e < batch; e++)
            for (size_t i = 0; i < s->M; i++)
                for (size_t j = 0; j < s->N; j++)
                    c[at(&C, s->layout, e, i, j)] = uniform(s->coarse);
    memcpy(c0, c, C.elems * 4);
    cl_mem dA = h ? upload(a16, A.elems * 2) : upload(a, A.elems * 4);
    cl_mem dB = h ? upload(b16, B.elems * 2) : upload(b, B.elems * 4);
    cl_mem dC = upload(c, C.elems * 4);

    const clgemm_gemm_desc d = {
        .algorithm = s->algorithm, .layout = s->layout, .op_a = s->op_a, .op_b = s->op_b,
        .M = s->M, .N = s->N, .K = s->K, .alpha = s->alpha, .beta = s->beta, .ab_type = s->dtype,
        .A = dA, .off_a = A.off, .ld_a = A.ld, .stride_a = A.stride,
        .B = dB, .off_b = B.off, .ld_b = B.ld, .stride_b = B.stride,
        .C = dC, .off_c = C.off, .ld_c = C.ld, .stride_c = C.stride, .batch = s->batch };
    cl_command_queue q = s->queue ? s->queue : clgemm_cl_queue(ctx);
    cl_event first = NULL, last = NULL;
    clgemm_status st;
    if (s->wrapper && h)
        st = clgemm_gemm_16bit(ctx, s->algorithm, s->dtype, s->M, s->N, s->K, s->alpha, dA,
                               A.off, A.ld, dB, B.off, B.ld, s->beta, dC, C.off, C.ld, q, &last);
    else if (s->wrapper)
        st = clgemm_sgemm_events(ctx, s->algorithm, s->M, s->N, s->K, s->alpha, dA, A.off, A.ld,
                                 dB, B.off, B.ld, s->beta, dC, C.off, C.ld, q, &first, &last);
    else
        st = clgemm_gemm(ctx, &d, q, &first, &last);
    int bad = 0;
    char why[256] = "";
    if (st != CLGEMM_SUCCESS) {
        snprintf(why, sizeof why, "%s", clgemm_last_error());
        bad = 1;
    } else {
        clFinish(q); /* an out-of-order queue would read before the call's commands ran */
        clEnqueueReadBuffer(q, dC, CL_TRUE, 0, C.elems * 4, got, 0, NULL, NULL);
        /* The events bracket the call: first starts before last ends. */
        cl_ulong t0 = 0, t1 = 0;
        const bool want_first = !(s->wrapper && h); /* clgemm_gemm_16bit gives one event */
        if (!last || (want_first && !first) ||
            (first && (clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof t0,
                                               &t0, NULL) != CL_SUCCESS ||
                       clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof t1, &t1,
                                               NULL) != CL_SUCCESS || t0 > t1))) {
            snprintf(why, sizeof why, "events: first %p last %p, %llu > %llu", (void *)first,
                     (void *)last, (unsigned long long)t0, (unsigned long long)t1);
            bad = 1;
        } else if ((s->commands == 1 && first != last) || (s->commands == 2 && first == last)) {
            snprintf(why, sizeof why, "%s", s->commands == 1 ? "a pre-pass ran" : "no pre-pass");
            bad = 1;
        }
        unsigned packs = 0;
        if (!bad && s->packs && (clgemm_resolve_packing(ctx, &d, &packs) != CLGEMM_SUCCESS ||
                                 packs != (unsigned)s->packs - 1)) {
            snprintf(why, sizeof why, "packed %#x, expected %#x", packs, s->packs - 1);
            bad = 1;
        }
    }
    const double tol = ldexp(1.0, -24) * fmax(4.0, 2.0 * sqrt((double)s->K)) * (h ? 2 : 1) +
                       (h ? ldexp(1.0, -20) : 0.0);
    double worst = 0.0;
    if (!bad) {
        /* Outside C's windows: untouched (NaN bit patterns compared as bits). */
        bool *in = calloc(C.elems, 1);
        for (size_t e = 0; e < batch; e++)
            for (size_t i = 0; i < s->M; i++)
                for (size_t j = 0; j < s->N; j++)
                    in[at(&C, s->layout, e, i, j)] = true;
        for (size_t k = 0; k < C.elems && !bad; k++)
            if (!in[k] && memcmp(&got[k], &c0[k], 4) != 0) {
                snprintf(why, sizeof why, "C[%zu] outside the windows changed to %g", k,
                         (double)got[k]);
                bad = 1;
            }
        for (size_t e = 0; e < batch && !bad; e++)
            for (size_t i = 0; i < s->M && !bad; i++)
                for (size_t j = 0; j < s->N && !bad; j++) {
                    double sum = 0.0, mag = 0.0;
                    for (size_t k = 0; k < s->K; k++) {
                        const double p = (double)a[at(&A, s->layout, e, i, k)] *
                                         (double)b[at(&B, s->layout, e, k, j)];
                        sum += p;
                        mag += fabs(p);
                    }
                    const size_t ci = at(&C, s->layout, e, i, j);
                    const double cin = s->beta != 0.0f ? (double)s->beta * c0[ci] : 0.0;
                    const double ref = s->alpha * sum + cin;
                    const double bound = fabs((double)s->alpha) * mag + fabs(cin);
                    const double err = fabs((double)got[ci] - ref);
                    if (!(err <= tol * bound)) { /* NaN fails too */
                        snprintf(why, sizeof why, "C[%zu](%zu,%zu) = %.9g, reference %.9g "
                                 "(error %.3g of %.3g allowed)", e, i, j, (double)got[ci], ref,
                                 bound > 0 ? err / bound : err, tol);
                        bad = 1;
                    } else if (bound > 0 && err / bound > worst)
                        worst = err / bound;
                }
        free(in);
    }
    if (bad || getenv("TEST_LAYOUTS_VERBOSE"))
        printf("%s %s%s%s\n", bad ? "FAIL" : "ok  ", what, bad ? ": " : "", why);
    failures += bad;
    if (first)
        clReleaseEvent(first);
    if (last)
        clReleaseEvent(last);
    clReleaseMemObject(dA);
    clReleaseMemObject(dB);
    clReleaseMemObject(dC);
    free(a), free(b), free(c), free(c0), free(got), free(a16), free(b16);
    return bad;
}
