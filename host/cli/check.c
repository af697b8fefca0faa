#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double tolerance_f32(int K) { return 0x1.0p-24 * fmax(4.0, 2.0 * sqrt((double)K)); }

double tolerance_for(const char *precision, int K)
{
    if (strcmp(precision, "tf32") == 0 || strcmp(precision, "f16") == 0)
        return 0x1.0p-10 * 1.01 + tolerance_f32(K);
    /* A truncated (just under 2^-10), B rounded (2^-11): a product is off by under
     * 1.5 * 2^-10 + 2^-21 (docs/precision.md). */
    if (strcmp(precision, "tf32t") == 0)
        return 0x1.8p-10 * 1.01 + tolerance_f32(K);
    if (strcmp(precision, "bf16") == 0)
        return 0x1.0p-7 * 1.01 + tolerance_f32(K);
    if (strcmp(precision, "tf32x3") == 0)
        return 2.0 * tolerance_f32(K) + 0x1.0p-20;
    return tolerance_f32(K);
}

/* Whether every value of the 16-bit format `dtype` is exact in the input format of the
 * arithmetic `precision`. */
static bool exact_in(const char *dtype, const char *precision)
{
    bool f16 = strcmp(dtype, "f16") == 0, bf16 = strcmp(dtype, "bf16") == 0;
    if (!f16 && !bf16)
        return false;
    if (strcmp(precision, "fp32") == 0 || strcmp(precision, "tf32") == 0 ||
        strcmp(precision, "tf32t") == 0 || strcmp(precision, "tf32x3") == 0)
        return true; /* 11 and 8 significant bits, exponents within fp32's */
    return strcmp(precision, dtype) == 0;
}

double tolerance_for_inputs(const char *precision, const char *dtype, int K)
{
    if (!dtype || !exact_in(dtype, precision))
        return tolerance_for(precision, K);
    if (strcmp(precision, "fp32") == 0)
        return tolerance_f32(K);
    return 2.0 * tolerance_f32(K) + 0x1.0p-20;
}

/* C's rounding to a 16-bit type (rel of |c|, plus abs) is allowed before the metric. */
static double entry_error(double c, double ref, double scale, double rel, double abs_part)
{
    if (!isfinite(c))
        return INFINITY;
    double d = fabs(c - ref) - rel * fabs(c) - abs_part;
    if (d <= 0.0)
        return 0.0;
    return scale > 0.0 ? d / scale : INFINITY;
}

/* Where the entries' final values go: the reference's arrays at an index. */
typedef struct entry_out {
    const c_epilogue *epi; /* NULL: plain */
    double *value, *scale, *plain, *plain_scale;
} entry_out;

/* What the metric adds for C's own term, then the epilogue: the final value and scale of an
 * entry, and with an epilogue its plain ones too. */
static void finish_entry(const host_matrix *C0, float alpha, float beta, int b, int i, int j,
                         double sum, double mag, const entry_out *o, size_t t)
{
    double c0 = beta != 0.0f ? (double)host_matrix_at(C0, b, i, j) : 0.0;
    const double p = (double)alpha * sum + (double)beta * c0;
    const double s = fabs((double)alpha) * mag + fabs((double)beta * c0);
    double bias_mag = 0.0;
    o->value[t] = epilogue_apply(o->epi, j, p, &bias_mag);
    o->scale[t] = s + bias_mag;
    if (o->plain) {
        o->plain[t] = p;
        o->plain_scale[t] = s;
    }
}

/* One entry computed from scratch: used for samples. */
static void exact_entry(const host_matrix *A, const host_matrix *B, const host_matrix *C0,
                        float alpha, float beta, int b, int i, int j, const entry_out *o,
                        size_t t)
{
    double sum = 0.0, mag = 0.0;
    for (int k = 0; k < host_matrix_op_cols(A); k++) {
        double p = (double)host_matrix_op(A, b, i, k) * (double)host_matrix_op(B, b, k, j);
        sum += p;
        mag += fabs(p);
    }
    finish_entry(C0, alpha, beta, b, i, j, sum, mag, o, t);
}

/* Distances between neighbours of op(B): along j (bj) and along k (bk); one of them is 1. */
static void op_steps(const host_matrix *m, size_t *along_rows, size_t *along_cols)
{
    /* stored (r, c) at r * ld + c (row-major) or c * ld + r; op swaps r and c */
    size_t r = m->col_major ? 1 : (size_t)m->ld, c = m->col_major ? (size_t)m->ld : 1;
    *along_rows = m->trans ? c : r;
    *along_cols = m->trans ? r : c;
}

/* The reference's output arrays (plain ones only with an epilogue); 0, or -1 out of memory. */
static int alloc_values(reference *ref, size_t n, const c_epilogue *epi, entry_out *o)
{
    ref->value = calloc(n, sizeof(double));
    ref->scale = calloc(n, sizeof(double));
    if (ref->epilogue) {
        ref->plain = calloc(n, sizeof(double));
        ref->plain_scale = calloc(n, sizeof(double));
    }
    *o = (entry_out){ ref->epilogue ? epi : NULL, ref->value, ref->scale, ref->plain,
                      ref->plain_scale };
    return ref->value && ref->scale && (!ref->epilogue || (ref->plain && ref->plain_scale))
               ? 0
               : -1;
}

static int build_full(reference *ref, const host_matrix *A, const host_matrix *B,
                      const host_matrix *C0, float alpha, float beta, const c_epilogue *epi)
{
    int M = ref->shape.M, N = ref->shape.N, K = ref->shape.K;
    ref->count = (size_t)ref->batch * (size_t)M * (size_t)N;
    entry_out o;
    const int made = alloc_values(ref, ref->count, epi, &o);
    double *arow = malloc((size_t)K * sizeof(double));
    if (made != 0 || !arow) {
        free(arow);
        return -1;
    }
    size_t bk, bj;
    op_steps(B, &bk, &bj);
    for (int b = 0; b < ref->batch; b++) {
        const float *Bb = B->data + (size_t)b * B->stride;
        for (int i = 0; i < M; i++) {
            size_t at = ((size_t)b * (size_t)M + (size_t)i) * (size_t)N;
            double *sum = ref->value + at, *mag = ref->scale + at;
            for (int k = 0; k < K; k++)
                arow[k] = host_matrix_op(A, b, i, k);
            if (bj == 1) {
                /* i-k-j order streams rows of op(B): cache-friendly for this O(MNK) loop */
                for (int k = 0; k < K; k++) {
                    const float *brow = Bb + (size_t)k * bk;
                    for (int j = 0; j < N; j++) {
                        double p = arow[k] * (double)brow[j];
                        sum[j] += p;
                        mag[j] += fabs(p);
                    }
                }
            } else {
                /* op(B)'s columns are contiguous: one dot product per entry */
                for (int j = 0; j < N; j++) {
                    const float *bcol = Bb + (size_t)j * bj;
                    double s = 0.0, g = 0.0;
                    for (int k = 0; k < K; k++) {
                        double p = arow[k] * (double)bcol[k];
                        s += p;
                        g += fabs(p);
                    }
                    sum[j] = s;
                    mag[j] = g;
                }
            }
            for (int j = 0; j < N; j++)
                finish_entry(C0, alpha, beta, b, i, j, sum[j], mag[j], &o, at + (size_t)j);
        }
    }
    free(arow);
    return 0;
}

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    return z ^ (z >> 27);
}

#define RANDOM_SAMPLES 4096

static void add_sample(reference *ref, int b, int i, int j)
{
    ref->batches[ref->count] = b;
    ref->rows[ref->count] = i;
    ref->cols[ref->count++] = j;
}

/* Whole first and last rows and columns of the first and last problem of a batch (where edge
 * bugs live), the corners of the others, and random entries of any. */
static int build_sampled(reference *ref, const host_matrix *A, const host_matrix *B,
                         const host_matrix *C0, float alpha, float beta, const c_epilogue *epi,
                         uint64_t seed)
{
    int M = ref->shape.M, N = ref->shape.N, nb = ref->batch;
    size_t cap = 2 * (2 * (size_t)M + 2 * (size_t)N) + 4 * (size_t)nb + RANDOM_SAMPLES;
    ref->batches = malloc(cap * sizeof(int));
    ref->rows = malloc(cap * sizeof(int));
    ref->cols = malloc(cap * sizeof(int));
    entry_out o;
    if (alloc_values(ref, cap, epi, &o) != 0 || !ref->batches || !ref->rows || !ref->cols)
        return -1;
    ref->count = 0;
    for (int b = 0; b < nb; b++) {
        if (b == 0 || b == nb - 1) {
            for (int j = 0; j < N; j++) {
                add_sample(ref, b, 0, j);
                if (M > 1)
                    add_sample(ref, b, M - 1, j);
            }
            for (int i = 1; i + 1 < M; i++) {
                add_sample(ref, b, i, 0);
                if (N > 1)
                    add_sample(ref, b, i, N - 1);
            }
        } else {
            add_sample(ref, b, 0, 0);
            add_sample(ref, b, 0, N - 1);
            add_sample(ref, b, M - 1, 0);
            add_sample(ref, b, M - 1, N - 1);
        }
    }
    uint64_t s = seed ^ 0x5eed5eed5eedull;
    for (int t = 0; t < RANDOM_SAMPLES; t++) {
        int i = (int)(next(&s) % (uint64_t)M), j = (int)(next(&s) % (uint64_t)N);
        add_sample(ref, nb > 1 ? (int)(next(&s) % (uint64_t)nb) : 0, i, j);
    }
    for (size_t t = 0; t < ref->count; t++)
        exact_entry(A, B, C0, alpha, beta, ref->batches[t], ref->rows[t], ref->cols[t], &o, t);
    return 0;
}

int reference_build(reference *ref, const host_matrix *A, const host_matrix *B,
                    const host_matrix *C0, float alpha, float beta, bool full, uint64_t seed)
{
    return reference_build_epilogue(ref, A, B, C0, alpha, beta, NULL, full, seed);
}

int reference_build_epilogue(reference *ref, const host_matrix *A, const host_matrix *B,
                             const host_matrix *C0, float alpha, float beta,
                             const c_epilogue *epi, bool full, uint64_t seed)
{
    memset(ref, 0, sizeof *ref);
    ref->epilogue = epilogue_active(epi);
    if (ref->epilogue)
        epilogue_rounding(epi->c_type, &ref->round_rel, &ref->round_abs);
    ref->shape = (gemm_shape){ host_matrix_op_rows(A), host_matrix_op_cols(B),
                               host_matrix_op_cols(A) };
    ref->batch = C0->batch;
    ref->full = full;
    int rc = full ? build_full(ref, A, B, C0, alpha, beta, epi)
                  : build_sampled(ref, A, B, C0, alpha, beta, epi, seed);
    if (rc != 0)
        reference_free(ref);
    return rc;
}

void reference_free(reference *ref)
{
    free(ref->batches);
    free(ref->rows);
    free(ref->cols);
    free(ref->value);
    free(ref->scale);
    free(ref->plain);
    free(ref->plain_scale);
    memset(ref, 0, sizeof *ref);
}

static double error_against(const reference *ref, const host_matrix *C, const double *value,
                            const double *scale, double rel, double abs_part)
{
    double worst = 0.0;
    size_t M = (size_t)ref->shape.M, N = (size_t)ref->shape.N;
    for (size_t t = 0; t < ref->count; t++) {
        int b = ref->full ? (int)(t / (M * N)) : ref->batches[t];
        int i = ref->full ? (int)(t / N % M) : ref->rows[t];
        int j = ref->full ? (int)(t % N) : ref->cols[t];
        double err = entry_error(host_matrix_at(C, b, i, j), value[t], scale[t], rel, abs_part);
        if (!(err <= worst))
            worst = err; /* also catches NaN */
    }
    return worst;
}

double reference_error(const reference *ref, const host_matrix *C)
{
    return error_against(ref, C, ref->value, ref->scale, ref->round_rel, ref->round_abs);
}

double reference_error_plain(const reference *ref, const host_matrix *C)
{
    return ref->epilogue ? error_against(ref, C, ref->plain, ref->plain_scale, 0.0, 0.0)
                         : reference_error(ref, C);
}

double compare_error(const host_matrix *A, const host_matrix *B, const host_matrix *C0,
                     float alpha, float beta, const host_matrix *C, const host_matrix *other)
{
    return compare_error_epilogue(A, B, C0, alpha, beta, NULL, C, other);
}

double compare_error_epilogue(const host_matrix *A, const host_matrix *B, const host_matrix *C0,
                              float alpha, float beta, const c_epilogue *epi,
                              const host_matrix *C, const host_matrix *other)
{
    double rel = 0.0, abs_part = 0.0;
    if (epi)
        epilogue_rounding(epi->c_type, &rel, &abs_part);
    int M = host_matrix_op_rows(A), N = host_matrix_op_cols(B), K = host_matrix_op_cols(A);
    double *row_norm = malloc((size_t)M * sizeof(double));
    double *col_norm = malloc((size_t)N * sizeof(double));
    double worst = INFINITY;
    if (!row_norm || !col_norm)
        goto done;
    worst = 0.0;
    for (int b = 0; b < C->batch; b++) {
        for (int i = 0; i < M; i++) {
            row_norm[i] = 0.0;
            for (int k = 0; k < K; k++)
                row_norm[i] += (double)host_matrix_op(A, b, i, k) * host_matrix_op(A, b, i, k);
        }
        for (int j = 0; j < N; j++) {
            col_norm[j] = 0.0;
            for (int k = 0; k < K; k++)
                col_norm[j] += (double)host_matrix_op(B, b, k, j) * host_matrix_op(B, b, k, j);
        }
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double c0 = beta != 0.0f ? (double)host_matrix_at(C0, b, i, j) : 0.0;
                double scale = fabs((double)alpha) * sqrt(row_norm[i] * col_norm[j]) +
                               fabs((double)beta * c0);
                double bias_mag = 0.0;
                double theirs = epilogue_apply(epi, j, host_matrix_at(other, b, i, j), &bias_mag);
                double err = entry_error(host_matrix_at(C, b, i, j), theirs, scale + bias_mag,
                                         rel, abs_part);
                if (!isfinite(theirs))
                    err = INFINITY;
                if (!(err <= worst))
                    worst = err;
            }
    }
done:
    free(row_norm);
    free(col_norm);
    return worst;
}
