/* The host's side of the fused epilogue and of a 16-bit C (--epilogue, --out): the same
 * operation in double for the reference, and how it widens the error bound.
 *
 * With p = alpha * sum_k a*b + beta * c0 and b the bias of the entry's column, the kernel
 * stores round(act(p + b)).  The reference is act(p + b) in double, unrounded, and an entry
 * passes when
 *     |c - ref| - round_rel * |c| - round_abs  <=  tolerance * (scale + |b|)
 * where scale is the plain metric's |alpha| sum |a*b| + |beta * c0|, round_rel the unit
 * roundoff of C's type (2^-11 f16, 2^-8 bf16; 0 for fp32) and round_abs half its smallest
 * subnormal spacing (f16: 2^-25).  The tolerance is the plain one widened by the epilogue:
 *     L * (tolerance + 2^-23) + eta
 * with L the activation's Lipschitz constant (1 for none and relu, 1.13 for gelu), 2^-23
 * the float rounding of the bias addition, and eta the activation's own evaluation error
 * relative to |p + b| (0 for relu; 2^-20 for gelu).  docs/precision.md proves it. */
#ifndef CLGEMM_EPILOGUE_CHECK_H
#define CLGEMM_EPILOGUE_CHECK_H

#include <stdbool.h>

#include "clgemm.h"

typedef struct c_epilogue {
    clgemm_epilogue epilogue;
    clgemm_dtype c_type; /* CLGEMM_F32, or the 16-bit type C is rounded to */
    const float *bias;   /* N values (already in c_type's values); NULL without a bias */
} c_epilogue;

/* Whether the run differs from the plain fp32 GEMM (an epilogue, or a 16-bit C). */
bool epilogue_active(const c_epilogue *x);

/* The activation of the epilogue, in double. */
double epilogue_act(clgemm_epilogue epilogue, double x);

/* The plain value p of an entry in column j, to the final act(p + b) (unrounded); *bias_mag
 * receives |b|. */
double epilogue_apply(const c_epilogue *x, int j, double p, double *bias_mag);

/* The plain tolerance widened for the epilogue (unchanged without one). */
double epilogue_tolerance(clgemm_epilogue epilogue, double tolerance);

/* C's rounding: relative (unit roundoff) and absolute (half the subnormal spacing) parts. */
void epilogue_rounding(clgemm_dtype c_type, double *rel, double *abs_part);

/* "--epilogue" names: 0, or -1 for an unknown name.  "--out" uses parse_dtype's names. */
int epilogue_parse(const char *text, clgemm_epilogue *out);

#endif
