/* Split-K in one launch: what steps 7 and 11 share (cl/07_warp_tiled.cl, cl/skinny_ksplit.h;
 * step 10 keeps its partial sums as its accumulators lie, cl/mma/tma_ksplit.h).  A plan built
 * with GEMM_KSPLIT = 1 runs slice z of K as dimension 2 of the NDRange (host/lib/splitk.c), and
 *   1. every group writes its sums to partial product z (parts x M x ldp floats, laid out as C);
 *   2. a fence, then one work-item counts the block's finished slices (tile_counts[block]);
 *   3. the group that counts the last slice resets the count (for the next call) and adds the
 *      partial products 0, 1, ..., parts - 1, all read back from memory: the same order
 *      whichever group comes last, so the same bits at every run;
 *   4. that group stores C through the epilogue; the others are done.
 * No group waits for another, so any number of slices runs on any number of compute units,
 * and no second kernel runs after the GEMM: on NVIDIA's OpenCL a launch costs tens of
 * microseconds, as long as a small GEMM.
 * OpenCL 1.2 orders other groups' memory only through atomics, so the partial sums move as
 * atomic words.  On NVIDIA (CLGEMM_NV_PARTIALS, set by the host) the fence is PTX's
 * device-wide membar.gl and plain loads and stores do: a work-item's atomic reads go out one
 * at a time (probe64 in bench/results/2026-11-25_nvidia-h100/probes).
 * Needs the kernel's M, partials, ldp, tile_counts and its group's corner row0, col0. */
#ifndef CLGEMM_KSPLIT_H
#define CLGEMM_KSPLIT_H

#if GEMM_KSPLIT
#define KS_PART_AT(p, r, c) (partials + ((size_t)(p) * M + row0 + (r)) * ldp + col0 + (c))
#if CLGEMM_NV_PARTIALS
#define KS_PUT1(p, r, c, v) (*KS_PART_AT(p, r, c) = (v))
#define KS_GET1(p, r, c) (*KS_PART_AT(p, r, c))
/* (c a multiple of 4 and ldp of 8: 16-byte aligned) */
#define KS_PUT4(p, r, c, v) (*(__global float4 *)KS_PART_AT(p, r, c) = (v))
#define KS_GET4(p, r, c) (*(__global const float4 *)KS_PART_AT(p, r, c))
#define KS_FENCE() asm volatile("membar.gl;" ::: "memory")
#else
#define KS_PUT1(p, r, c, v) atomic_xchg((volatile __global int *)KS_PART_AT(p, r, c), as_int(v))
#define KS_GET1(p, r, c) as_float(atomic_or((volatile __global int *)KS_PART_AT(p, r, c), 0))
#define KS_PUT4(p, r, c, v)                                                                  \
    (KS_PUT1(p, r, c, (v).x), KS_PUT1(p, r, (c) + 1, (v).y), KS_PUT1(p, r, (c) + 2, (v).z),   \
     KS_PUT1(p, r, (c) + 3, (v).w))
#define KS_GET4(p, r, c)                                                                     \
    ((float4)(KS_GET1(p, r, c), KS_GET1(p, r, (c) + 1), KS_GET1(p, r, (c) + 2),              \
              KS_GET1(p, r, (c) + 3)))
#define KS_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

/* Step 2, after every work-item has written its partial sums: last_[0] (a __local int) says
 * whether this group finishes its block.  Statements at the kernel's top level, so that every
 * work-item meets the barriers. */
#define KS_COUNT(tid, last_)                                                                 \
    KS_FENCE();                                                                              \
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);                                     \
    if ((tid) == 0) {                                                                        \
        __global int *count_ = tile_counts + get_group_id(1) * get_num_groups(0) +          \
                               get_group_id(0);                                              \
        (last_)[0] = atomic_add(count_, 1) == (int)get_num_groups(2) - 1;                    \
        if ((last_)[0])                                                                      \
            atomic_xchg(count_, 0);                                                          \
        KS_FENCE();                                                                          \
    }                                                                                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    KS_FENCE() /* the readers' side of the count, for plain loads */
#endif

#endif
