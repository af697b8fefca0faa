/* Is a computed C right?  A reference in double precision and the error metric.
 *
 * error(i,j) = |c - ref| / (|alpha| * sum_k |a_ik * b_kj| + |beta * c0_ij|)
 * i.e. the error relative to the magnitude of what was summed, so one threshold per
 * precision serves every size and every input scale.  NaN or Inf anywhere is an error of
 * +Inf.  Small problems are checked entry by entry against a full reference; large ones
 * against exactly computed samples (whole first/last rows and columns, where edge bugs
 * live, plus random interior entries), and, when another result such as CLBlast's is at
 * hand, entry by entry against it with the Cauchy-Schwarz bound |a_i|_2 |b_j|_2 >=
 * sum_k |a_ik b_kj| as the scale.  Every problem of a batch is checked the same way (sampled:
 * the edges of the first and last problem, the corners of the others, random entries of
 * any). */
#ifndef CLGEMM_CHECK_H
#define CLGEMM_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "epilogue_check.h"
#include "matrix.h"
#include "shape.h"

typedef struct reference {
    gemm_shape shape; /* of op(A) op(B) */
    int batch;        /* problems, each checked */
    bool full;        /* every entry (problem by problem, row by row), else the samples below */
    size_t count;     /* entries checked */
    int *batches, *rows, *cols; /* sample positions (NULL when full) */
    double *value;    /* exact-ish C at each checked entry */
    double *scale;    /* the metric's denominator there */
    /* With an epilogue or a 16-bit C (epilogue_check.h): value is act(p + bias), scale has
     * |bias| added, and plain/plain_scale keep p and its scale for CLBlast's plain row. */
    bool epilogue;
    double *plain, *plain_scale;
    double round_rel, round_abs; /* C's rounding, allowed on top of the metric */
} reference;

/* Problems up to this many multiply-adds get the full reference by default. */
#define CHECK_FULL_LIMIT (1ull << 28)

/* The product of op(A) and op(B) (host_matrix's trans flags) for every problem of the batch,
 * from the matrices as stored (either layout, any leading dimension). */
int reference_build(reference *ref, const host_matrix *A, const host_matrix *B,
                    const host_matrix *C0, float alpha, float beta, bool full, uint64_t seed);
/* The same for the whole operation: the epilogue applied and C's rounding allowed for (epi
 * may be NULL: the plain GEMM). */
int reference_build_epilogue(reference *ref, const host_matrix *A, const host_matrix *B,
                             const host_matrix *C0, float alpha, float beta,
                             const c_epilogue *epi, bool full, uint64_t seed);
void reference_free(reference *ref);
double reference_error(const reference *ref, const host_matrix *C);
/* Against the plain product (no epilogue, no rounding of C): CLBlast's row when the run has
 * an epilogue or a 16-bit C, which CLBlast does not do. */
double reference_error_plain(const reference *ref, const host_matrix *C);

/* Entry-by-entry agreement of two results of the same product (see above). */
double compare_error(const host_matrix *A, const host_matrix *B, const host_matrix *C0,
                     float alpha, float beta, const host_matrix *C, const host_matrix *other);
/* The same where `other` is the plain product (CLBlast's) and C had epi applied: other's
 * entries go through the epilogue in double, and C's rounding is allowed for. */
double compare_error_epilogue(const host_matrix *A, const host_matrix *B, const host_matrix *C0,
                              float alpha, float beta, const c_epilogue *epi,
                              const host_matrix *C, const host_matrix *other);

/* The largest error accepted for fp32 with inner dimension K: u * max(4, 2 sqrt(K)) with
 * u = 2^-24 the unit roundoff.  Honest fp32 sums of random data measure about u * sqrt(K) / 4
 * (2.5e-7 at K = 256 on PoCL), so this leaves a margin of several times; a genuine bug (a
 * lost k term costs ~4/K, a wrong tile far more) stays far above it. */
double tolerance_f32(int K);

/* The same per precision of the arithmetic.  Inputs rounded to an 11-bit significand (tf32,
 * f16: unit roundoff 2^-11) make each product off by at most ~2^-10 of |a*b|, so the error
 * relative to sum |a*b| is bounded by 2^-10 (+1% and the fp32 accumulation's share; for f16 inputs in
 * its normal range, |x| >= 2^-14, below which its spacing is 2^-24 absolute); bf16 (2^-8,
 * fp32's range) by 2^-7; tf32x3 drops only the lo*lo term and the rounding of the lo parts, about
 * 2^-21 of each product, so 2^-20 plus twice the fp32 tolerance.  tf32t (A truncated to tf32,
 * off by just under 2^-10, B rounded, 2^-11) by 1.5 * 2^-10.  Unknown names get fp32's. */
double tolerance_for(const char *precision, int K);

/* The same when the inputs were already rounded to `dtype` ("f32", "f16", "bf16") on the
 * host and the reference is computed from the rounded values.  Where every value of dtype
 * is exact in the arithmetic's input format (f16 in f16, tf32 and fp32; bf16 in bf16, tf32
 * and fp32) nothing is lost to input rounding, and a product of two such values is exact in
 * fp32 (at most 22 significant bits), so only the accumulation errs: fp32 rows keep fp32's
 * tolerance; matrix-unit rows (tf32, tf32x3, f16, bf16) get tf32x3's 2^-20 plus twice fp32's,
 * because tensor cores do not round their fp32 sums to nearest (they truncate while aligning
 * the addends, Fasi et al. 2021; tf32x3, whose error is the same accumulation, measured
 * 3.1e-6 at K = 4096 on the H100 against that bound's 1.6e-5).  A lost k term (about 4/K)
 * stays above it up to K ~ 40000 (8 times above at K = 16384).  Otherwise, or dtype "f32" or NULL,
 * tolerance_for(precision, K). */
double tolerance_for_inputs(const char *precision, const char *dtype, int K);

#endif
