/* Split-K inside step 11's launch (GEMM_KSPLIT = 1; host/lib/splitk.c chooses it for a split
 * plan of step 11, as for step 10).  Included by cl/11_skinny.cl.
 *
 * Why: at M = 16 a group's sums are few (BM x BN), but N / BN groups do not fill a large GPU
 * (64 for N = 4096 on 132 SMs), and a second kernel after the GEMM costs a launch and the gap
 * before it.  So the slices are one launch, slice z in dimension 2 of the NDRange (kslice
 * values of K from z * kslice, a multiple of 8: the kernel moves A and B there and runs as if
 * the call were that slice), and the group that finishes a block of C last adds the partial
 * products, in slice order, and stores C itself, as step 10 does (cl/mma/tma_ksplit.h):
 *   1. every group writes its sums to partial product z (parts x M x ldp floats);
 *   2. a fence, then one work-item counts the block's finished slices (tile_counts[block]);
 *   3. the group that counts the last slice resets the count (for the next call) and adds
 *      the partial products 0, 1, ..., parts - 1, all read back from memory: the same order
 *      whichever group comes last, so the same bits at every run;
 *   4. that group stores C through the epilogue; the others are done.
 * No group waits for another, so any number of slices runs on any number of compute units.
 * OpenCL 1.2 orders other groups' memory only through atomics, so the partial sums move as
 * atomic words; there are BM x BN of them per group, against BN x K values of B read.  On
 * NVIDIA (CLGEMM_NV_PARTIALS, set by the host) the fence is PTX's device-wide membar.gl, as in
 * step 10, and plain loads and stores do: a work-item's atomic reads go out one at a time,
 * and the sum of six slices cost a tenth of a 16 x 4096 x 4096 call (probe64). */
#ifndef CLGEMM_SKINNY_KSPLIT_H
#define CLGEMM_SKINNY_KSPLIT_H

#if GEMM_KSPLIT
#define SK_PART_AT(p, r, c) (partials + ((size_t)(p) * M + row0 + (r)) * ldp + col0 + (c))
#if CLGEMM_NV_PARTIALS
#define SK_PUT_PART(r, c, v) (*SK_PART_AT(kpart, r, c) = (v))
#define SK_GET_PART(p, r, c) (*SK_PART_AT(p, r, c))
#define SK_FENCE() asm volatile("membar.gl;" ::: "memory")
#else
#define SK_PUT_PART(r, c, v)                                                                 \
    atomic_xchg((volatile __global int *)SK_PART_AT(kpart, r, c), as_int(v))
#define SK_GET_PART(p, r, c) as_float(atomic_or((volatile __global int *)SK_PART_AT(p, r, c), 0))
#define SK_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

/* Steps 2 to 4, after every group has written its partial product (step 1).  Statements at
 * the kernel's top level, so that every work-item meets the barriers. */
#define SK_KSPLIT_FINISH()                                                                   \
    SK_FENCE();                                                                              \
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);                                     \
    if (tid == 0) {                                                                          \
        __global int *count_ = tile_counts + get_group_id(1) * get_num_groups(0) +          \
                               get_group_id(0);                                              \
        sk_last_[0] = atomic_add(count_, 1) == (int)get_num_groups(2) - 1;                   \
        if (sk_last_[0])                                                                     \
            atomic_xchg(count_, 0);                                                          \
        SK_FENCE();                                                                          \
    }                                                                                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    SK_FENCE(); /* the readers' side of the count, for plain loads */                        \
    if (sk_last_[0])                                                                         \
        for (int i_ = tid; i_ < rows * cols; i_ += WG) {                                     \
            const int r_ = i_ / cols, c_ = i_ - r_ * cols;                                   \
            float s_ = SK_GET_PART(0, r_, c_);                                               \
            for (int p_ = 1; p_ < (int)get_num_groups(2); ++p_)                              \
                s_ += SK_GET_PART(p_, r_, c_);                                               \
            gemm_store1(C, ldc, bias, r_, c_, s_, alpha, beta);                              \
        }
#endif

#endif
