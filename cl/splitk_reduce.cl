#include "common.h"

/* Split-K's second half (host/lib/splitk.c).  Where M x N blocks of C are too few to fill the
 * device, the library cuts K into S slices and runs the GEMM kernel on them as a strided batch
 * (slice s: alpha 1, beta 0, into partial product s of a scratch buffer, M x N, rows ldp
 * apart, slices M * ldp apart).  This kernel adds the S partial products of each element in
 * slice order 0..S-1 (a fixed order: the result is the same bit for bit at every run; no
 * atomics) and applies alpha, beta, the epilogue and C's type through cl/epilogue.h's store,
 * as every kernel does (the sliced GEMM itself is built plain: float partial sums).
 *
 * Not a lesson step: no registry row, no K loop.  A work-group of 32 x 8 work-items sums a
 * block of 32 x 32 elements, four per work-item, whose loads of one slice are independent
 * and go out together.  The partial products are read along their rows, neighbouring
 * work-items reading neighbouring sums.  A C stored transposed (GEMM_TRANS_C: a swapped call
 * computes C^T) has the kernel's columns ldc apart in memory: its block is turned in local
 * memory first, so that neighbouring work-items store neighbouring elements there too.
 * Stored straight from the sums, each warp's store touched 32 rows of C, and the reduction
 * took 10% of a 128 x 4096 x 4096 fp32 call split in 4 (probe201 in
 * bench/results/2026-11-27_nvidia-h100/probes). */

#define RB 32           /* the block's side */
#define RB_ROWS 8       /* work-items along its rows: RB / RB_ROWS elements each */

__kernel __attribute__((reqd_work_group_size(RB, RB_ROWS, 1)))
void gemm_splitk_reduce(const int M, const int N, const int S, __global const float *restrict P,
                        const int ldp, const float alpha, const float beta,
                        __global gemm_c_t *restrict C, const int offC, const int ldc,
                        __global const gemm_c_t *restrict bias, const int offBias)
{
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const int r0 = (int)get_group_id(1) * RB, c0 = (int)get_group_id(0) * RB;
    const size_t slice = (size_t)M * (size_t)ldp;
    C += offC;
    GEMM_BIAS_MOVE(0, 0);

    /* Element i of this work-item: row r0 + ty + i * RB_ROWS, column c0 + tx. */
    float sum[RB / RB_ROWS];
    bool in[RB / RB_ROWS];
    __global const float *p[RB / RB_ROWS];
#pragma unroll
    for (int i = 0; i < RB / RB_ROWS; ++i) {
        const int r = r0 + ty + i * RB_ROWS, c = c0 + tx;
        in[i] = r < M && c < N;
        p[i] = P + (in[i] ? (size_t)r * (size_t)ldp + (size_t)c : 0);
        sum[i] = in[i] ? p[i][0] : 0.0f;
    }
    for (int s = 1; s < S; ++s)
#pragma unroll
        for (int i = 0; i < RB / RB_ROWS; ++i)
            if (in[i])
                sum[i] += p[i][s * slice];

#if GEMM_TRANS_C
    __local float block[RB][RB + 1]; /* [row][column]; the extra column spreads the banks */
#pragma unroll
    for (int i = 0; i < RB / RB_ROWS; ++i)
        block[ty + i * RB_ROWS][tx] = sum[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Now row r0 + tx, column c0 + ty + i * RB_ROWS: neighbours in a transposed C. */
#pragma unroll
    for (int i = 0; i < RB / RB_ROWS; ++i) {
        const int r = r0 + tx, c = c0 + ty + i * RB_ROWS;
        if (r < M && c < N)
            gemm_store1(C, ldc, bias, r, c, block[tx][ty + i * RB_ROWS], alpha, beta);
    }
#else
#pragma unroll
    for (int i = 0; i < RB / RB_ROWS; ++i)
        if (in[i])
            gemm_store1(C, ldc, bias, r0 + ty + i * RB_ROWS, c0 + tx, sum[i], alpha, beta);
#endif
}
