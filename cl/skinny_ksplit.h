/* Split-K inside step 11's launch (GEMM_KSPLIT = 1; host/lib/splitk.c chooses it for a split
 * plan of step 11, as for steps 7 and 10).  Included by cl/11_skinny.cl.
 *
 * Why: at M = 16 a group's sums are few (BM x BN), but N / BN groups do not fill a large GPU
 * (64 for N = 4096 on 132 SMs), and a second kernel after the GEMM costs a launch and the gap
 * before it.  So the slices are one launch, slice z in dimension 2 of the NDRange (kslice
 * values of K from z * kslice, a multiple of 8: the kernel moves A and B there and runs as if
 * the call were that slice), and the group that finishes a block of C last adds the partial
 * products, in slice order, and stores C itself (cl/ksplit.h).  Its partial sums are BM x BN
 * per group, against BN x K values of B read; the sum of six slices with atomic reads cost a
 * tenth of a 16 x 4096 x 4096 call, which is why NVIDIA moves them as plain words (probe64). */
#ifndef CLGEMM_SKINNY_KSPLIT_H
#define CLGEMM_SKINNY_KSPLIT_H

#include "ksplit.h"

#if GEMM_KSPLIT
#define SK_PUT_PART(r, c, v) KS_PUT1(kpart, r, c, v)

/* Steps 2 to 4, after every group has written its partial product (step 1).  Statements at
 * the kernel's top level, so that every work-item meets the barriers. */
#define SK_KSPLIT_FINISH()                                                                   \
    KS_COUNT(tid, sk_last_);                                                                 \
    if (sk_last_[0])                                                                         \
        for (int i_ = tid; i_ < rows * cols; i_ += WG) {                                     \
            const int r_ = i_ / cols, c_ = i_ - r_ * cols;                                   \
            float s_ = KS_GET1(0, r_, c_);                                                   \
            for (int p_ = 1; p_ < (int)get_num_groups(2); ++p_)                              \
                s_ += KS_GET1(p_, r_, c_);                                                   \
            gemm_store1(C, ldc, bias, r_, c_, s_, alpha, beta);                              \
        }
#endif

#endif
