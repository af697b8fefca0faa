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

static float at(const host_matrix *m, int r, int c)
{
    return m->data[(size_t)r * (size_t)m->ld + (size_t)c];
}

static double entry_error(double c, double ref, double scale)
{
    if (!isfinite(c))
        return INFINITY;
    double d = fabs(c - ref);
    if (d == 0.0)
        return 0.0;
    return scale > 0.0 ? d / scale : INFINITY;
}

/* One entry computed from scratch: used for samples. */
static void exact_entry(const host_matrix *A, const host_matrix *B, const host_matrix *C0,
                        float alpha, float beta, int i, int j, double *value, double *scale)
{
    double sum = 0.0, mag = 0.0;
    for (int k = 0; k < A->cols; k++) {
        double p = (double)at(A, i, k) * (double)at(B, k, j);
        sum += p;
        mag += fabs(p);
    }
    double c0 = beta != 0.0f ? (double)at(C0, i, j) : 0.0;
    *value = (double)alpha * sum + (double)beta * c0;
    *scale = fabs((double)alpha) * mag + fabs((double)beta * c0);
}

static int build_full(reference *ref, const host_matrix *A, const host_matrix *B,
                      const host_matrix *C0, float alpha, float beta)
{
    int M = ref->shape.M, N = ref->shape.N, K = ref->shape.K;
    ref->count = (size_t)M * (size_t)N;
    ref->value = calloc(ref->count, sizeof(double));
    ref->scale = calloc(ref->count, sizeof(double));
    if (!ref->value || !ref->scale)
        return -1;
    /* i-k-j order streams rows of B, which keeps this O(MNK) loop cache-friendly. */
    for (int i = 0; i < M; i++) {
        double *sum = ref->value + (size_t)i * (size_t)N;
        double *mag = ref->scale + (size_t)i * (size_t)N;
        for (int k = 0; k < K; k++) {
            double a = at(A, i, k);
            const float *b = B->data + (size_t)k * (size_t)B->ld;
            for (int j = 0; j < N; j++) {
                double p = a * (double)b[j];
                sum[j] += p;
                mag[j] += fabs(p);
            }
        }
        for (int j = 0; j < N; j++) {
            double c0 = beta != 0.0f ? (double)at(C0, i, j) : 0.0;
            sum[j] = (double)alpha * sum[j] + (double)beta * c0;
            mag[j] = fabs((double)alpha) * mag[j] + fabs((double)beta * c0);
        }
    }
    return 0;
}

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    return z ^ (z >> 27);
}

#define RANDOM_SAMPLES 4096

static int build_sampled(reference *ref, const host_matrix *A, const host_matrix *B,
                         const host_matrix *C0, float alpha, float beta, uint64_t seed)
{
    int M = ref->shape.M, N = ref->shape.N;
    size_t cap = 2 * (size_t)M + 2 * (size_t)N + RANDOM_SAMPLES;
    ref->rows = malloc(cap * sizeof(int));
    ref->cols = malloc(cap * sizeof(int));
    ref->value = malloc(cap * sizeof(double));
    ref->scale = malloc(cap * sizeof(double));
    if (!ref->rows || !ref->cols || !ref->value || !ref->scale)
        return -1;
    size_t n = 0;
    for (int j = 0; j < N; j++) {
        ref->rows[n] = 0, ref->cols[n++] = j;
        if (M > 1)
            ref->rows[n] = M - 1, ref->cols[n++] = j;
    }
    for (int i = 1; i + 1 < M; i++) {
        ref->rows[n] = i, ref->cols[n++] = 0;
        if (N > 1)
            ref->rows[n] = i, ref->cols[n++] = N - 1;
    }
    uint64_t s = seed ^ 0x5eed5eed5eedull;
    for (int t = 0; t < RANDOM_SAMPLES; t++) {
        ref->rows[n] = (int)(next(&s) % (uint64_t)M);
        ref->cols[n++] = (int)(next(&s) % (uint64_t)N);
    }
    ref->count = n;
    for (size_t t = 0; t < n; t++)
        exact_entry(A, B, C0, alpha, beta, ref->rows[t], ref->cols[t], &ref->value[t],
                    &ref->scale[t]);
    return 0;
}

int reference_build(reference *ref, const host_matrix *A, const host_matrix *B,
                    const host_matrix *C0, float alpha, float beta, bool full, uint64_t seed)
{
    memset(ref, 0, sizeof *ref);
    ref->shape = (gemm_shape){ A->rows, B->cols, A->cols };
    ref->full = full;
    int rc = full ? build_full(ref, A, B, C0, alpha, beta)
                  : build_sampled(ref, A, B, C0, alpha, beta, seed);
    if (rc != 0)
        reference_free(ref);
    return rc;
}

void reference_free(reference *ref)
{
    free(ref->rows);
    free(ref->cols);
    free(ref->value);
    free(ref->scale);
    memset(ref, 0, sizeof *ref);
}

double reference_error(const reference *ref, const host_matrix *C)
{
    double worst = 0.0;
    int N = ref->shape.N;
    for (size_t t = 0; t < ref->count; t++) {
        int i = ref->full ? (int)(t / (size_t)N) : ref->rows[t];
        int j = ref->full ? (int)(t % (size_t)N) : ref->cols[t];
        double err = entry_error(at(C, i, j), ref->value[t], ref->scale[t]);
        if (!(err <= worst))
            worst = err; /* also catches NaN */
    }
    return worst;
}

double compare_error(const host_matrix *A, const host_matrix *B, const host_matrix *C0,
                     float alpha, float beta, const host_matrix *C, const host_matrix *other)
{
    int M = A->rows, N = B->cols, K = A->cols;
    double *row_norm = calloc((size_t)M, sizeof(double));
    double *col_norm = calloc((size_t)N, sizeof(double));
    double worst = INFINITY;
    if (!row_norm || !col_norm)
        goto done;
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++)
            row_norm[i] += (double)at(A, i, k) * at(A, i, k);
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++)
            col_norm[j] += (double)at(B, k, j) * at(B, k, j);
    worst = 0.0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double c0 = beta != 0.0f ? (double)at(C0, i, j) : 0.0;
            double scale = fabs((double)alpha) * sqrt(row_norm[i] * col_norm[j]) +
                           fabs((double)beta * c0);
            double err = entry_error(at(C, i, j), at(other, i, j), scale);
            if (!isfinite(at(other, i, j)))
                err = INFINITY;
            if (!(err <= worst))
                worst = err;
        }
done:
    free(row_norm);
    free(col_norm);
    return worst;
}
