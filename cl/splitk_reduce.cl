#include "common.h"

/* Split-K's second half (host/lib/splitk.c).  Where M x N blocks of C are too few to fill the
 * device, the library cuts K into S slices and runs the GEMM kernel on them as a strided batch
 * (slice s: alpha 1, beta 0, into partial product s of a scratch buffer, M x N, rows ldp
 * apart, slices M * ldp apart).  This kernel adds the S partial products of each element in
 * slice order 0..S-1 (a fixed order: the result is the same bit for bit at every run; no
 * atomics) and applies alpha, beta, the epilogue and C's type through cl/epilogue.h's store,
 * as every kernel does (the sliced GEMM itself is built plain: float partial sums).
 *
 * Not a lesson step: no registry row, no K loop.  The work-group is 64 x 4: neighbouring
 * work-items read neighbouring partial sums and write neighbouring elements of a row of C. */

__kernel __attribute__((reqd_work_group_size(64, 4, 1)))
void gemm_splitk_reduce(const int M, const int N, const int S, __global const float *restrict P,
                        const int ldp, const float alpha, const float beta,
                        __global gemm_c_t *restrict C, const int offC, const int ldc,
                        __global const gemm_c_t *restrict bias, const int offBias)
{
    const int c = (int)get_global_id(0), r = (int)get_global_id(1);
    if (r >= M || c >= N)
        return;
    const size_t slice = (size_t)M * (size_t)ldp;
    __global const float *p = P + (size_t)r * ldp + c;
    float sum = p[0];
    for (int s = 1; s < S; ++s)
        sum += p[s * slice];
    C += offC;
    GEMM_BIAS_MOVE(0, 0);
    gemm_store1(C, ldc, bias, r, c, sum, alpha, beta);
}
