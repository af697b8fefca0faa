/* Split-K inside step 10 (GEMM_KSPLIT = 1; host/lib/splitk.c chooses it for step 10's split
 * plans).  Included by cl/10_wgmma_tma.cl after its definitions.
 *
 * Why not the library's general split (a batched launch over the slices, then
 * cl/splitk_reduce.cl): a second kernel costs a launch and the gap before it, tens of
 * microseconds on NVIDIA's OpenCL, which is as long as a whole GEMM of 16 x 4096 x 4096.  So
 * the slices are one launch, slice z in dimension 2 of the NDRange (kslice values of K, a
 * multiple of BK, from z * kslice: only the TMA coordinates move), and the group that
 * finishes a block of C last adds the partial products and stores C itself:
 *
 *   1. every group writes its fp32 sums to partial product z (parts x blocks x BM x BN
 *      floats, laid out as the accumulators are: KSPLIT_AT below);
 *   2. a fence makes them visible to the whole device, and one work-item counts the block's
 *      finished slices (an atomic add on tile_counts[block]);
 *   3. the group that counts the last slice resets the count to zero (for the next call)
 *      and sums the partial products in slice order 0, 1, ..., parts - 1, all read back from
 *      memory (its own is the value it wrote): the same order whichever group comes last, so
 *      the result is the same bit for bit at every run, and equal to the reduction's;
 *   4. that group stores C through the epilogue, like an unsplit one; the others are done.
 *
 * No group waits for another (a group that spun on a count could wait for one that the
 * device has not started), so any number of slices runs on any number of SMs.  The
 * emulation runs the same steps between barriers of the whole group, the producer warp's
 * work-items included, which leave only after the count (a barrier must see all of a group),
 * or with STAGED stores (mma/tma_store.h) only at the end.
 * Needs: CONSUMERS, WG_NI, WGN, TMA_RESULT, and the kernel's tid, wg, kpart, partials,
 * tile_counts and __local int ksplit_last_[1] (the kernel's ldp is step 11's, unread here). */
#ifndef CLGEMM_TMA_KSPLIT_H
#define CLGEMM_TMA_KSPLIT_H

/* The count before this group's arrival (an atomic add of 1). */
#if CLGEMM_EMULATE_TMA
#define KSPLIT_SYNC() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define KSPLIT_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
inline int ksplit_arrive(__global int *count) { return atomic_add(count, 1); }
/* OpenCL 1.2 orders other groups' memory only through atomics: the emulation moves the
 * partial sums and the count's reset as atomic words, which oclgrind checks as such. */
#define KSPLIT_PUT1(p, v) atomic_xchg((volatile __global int *)(p), as_int(v))
#define KSPLIT_PUT4(p, v)                                                                    \
    (KSPLIT_PUT1(p, (v).x), KSPLIT_PUT1((p) + 1, (v).y), KSPLIT_PUT1((p) + 2, (v).z),        \
     KSPLIT_PUT1((p) + 3, (v).w))
#define KSPLIT_GET1(p) as_float(atomic_or((volatile __global int *)(p), 0))
#define KSPLIT_GET4(p)                                                                       \
    ((float4)(KSPLIT_GET1(p), KSPLIT_GET1((p) + 1), KSPLIT_GET1((p) + 2), KSPLIT_GET1((p) + 3)))
#define KSPLIT_RESET(p) atomic_xchg(p, 0)
#else /* the producer warp has left: the consumers' named barrier, and a device-wide fence */
#define KSPLIT_SYNC() asm volatile("bar.sync 1, %0;" ::"r"(CONSUMERS * WGMMA_THREADS) : "memory")
#define KSPLIT_FENCE() asm volatile("membar.gl;" ::: "memory")
inline int ksplit_arrive(__global int *count)
{
    int before;
    asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(before) : "l"(count) : "memory");
    return before;
}
/* Plain 16-byte accesses: the fence each reader executes after the count orders them after
 * the writers' fences (PTX's fence-fence synchronization through the atomic). */
#define KSPLIT_PUT4(p, v) (*(__global float4 *)(p) = (v))
#define KSPLIT_GET4(p) (*(const __global float4 *)(p))
#define KSPLIT_RESET(p) (*(p) = 0)
#endif

/* The partial products lie as the accumulators do, not as C: block b's slice p is one run of
 * BM x BN floats, in which work-item t's q-th four sums sit at (q x consumers + t) x 4.  So a
 * warp's access is 512 contiguous bytes, a work-item's whole share is KSPLIT_QUADS 16-byte
 * loads, and no pair needs a test against C's edge (the run covers the block whole; what lies
 * past M or N is summed and never stored).  In C's layout the same share took 2 x KSPLIT_QUADS
 * 8-byte accesses that each touched 8 rows, and the last group's sum cost more than halving
 * K saved (probe61 in bench/results/2026-11-25_nvidia-h100/probes). */
#define KSPLIT_QUADS (WG_NI * WGN / 8)
#define KSPLIT_BLOCK (get_group_id(1) * get_num_groups(0) + get_group_id(0))
#define KSPLIT_BLOCKS (get_num_groups(0) * get_num_groups(1))
#define KSPLIT_AT(p, q)                                                                      \
    (partials + (((size_t)(p) * KSPLIT_BLOCKS + KSPLIT_BLOCK) * KSPLIT_QUADS + (q)) *        \
                    (CONSUMERS * WGMMA_THREADS) * 4 +                                        \
     (size_t)tid * 4)
/* Sums 4q .. 4q + 3 of this work-item, as the wgmma accumulators hold them. */
#define KSPLIT_ACC(q, c) TMA_RESULT[(q) / (WGN / 8)][4 * ((q) % (WGN / 8)) + (c)]

/* Step 3 adds one slice at a time: all of a slice's loads first, into registers of their
 * own, then the adds, so that a work-item has every load of the slice in flight at once
 * (a load followed by its add, pair by pair, waits out the memory's latency each time). */
#define KSPLIT_ADD_SLICE(p)                                                                  \
    do {                                                                                     \
        float4 in_[KSPLIT_QUADS];                                                            \
        _Pragma("unroll") for (int q = 0; q < KSPLIT_QUADS; ++q) in_[q] =                    \
            KSPLIT_GET4(KSPLIT_AT(p, q));                                                    \
        _Pragma("unroll") for (int q = 0; q < KSPLIT_QUADS; ++q) {                           \
            KSPLIT_ACC(q, 0) = (p) == 0 ? in_[q].x : KSPLIT_ACC(q, 0) + in_[q].x;            \
            KSPLIT_ACC(q, 1) = (p) == 0 ? in_[q].y : KSPLIT_ACC(q, 1) + in_[q].y;            \
            KSPLIT_ACC(q, 2) = (p) == 0 ? in_[q].z : KSPLIT_ACC(q, 2) + in_[q].z;            \
            KSPLIT_ACC(q, 3) = (p) == 0 ? in_[q].w : KSPLIT_ACC(q, 3) + in_[q].w;            \
        }                                                                                    \
    } while (0)

/* Steps 1 to 3; a group that does not finish its block returns.  Statements, not a block:
 * the barriers stay at the kernel's top level, where PoCL's emulation expects them (one
 * launch over a single slice runs them too, and stores as an unsplit group). */
#define TMA_KSPLIT_FINISH()                                                                  \
    const int parts_ = (int)get_num_groups(2);                                               \
    if (parts_ > 1 && wg < CONSUMERS)                                                        \
        _Pragma("unroll") for (int q = 0; q < KSPLIT_QUADS; ++q)                             \
            KSPLIT_PUT4(KSPLIT_AT(kpart, q), (float4)(KSPLIT_ACC(q, 0), KSPLIT_ACC(q, 1),    \
                                                      KSPLIT_ACC(q, 2), KSPLIT_ACC(q, 3)));  \
    KSPLIT_FENCE();                                                                          \
    KSPLIT_SYNC();                                                                           \
    if (tid == 0) {                                                                          \
        __global int *count_ = tile_counts + KSPLIT_BLOCK;                                   \
        ksplit_last_[0] = parts_ == 1 || ksplit_arrive(count_) == parts_ - 1;                \
        if (parts_ > 1 && ksplit_last_[0]) /* every group of the block has counted */        \
            KSPLIT_RESET(count_);                                                            \
        KSPLIT_FENCE();                                                                      \
    }                                                                                        \
    KSPLIT_SYNC();                                                                           \
    if (!ksplit_last_[0] || (wg >= CONSUMERS && !STAGED))                                    \
        return;                                                                              \
    KSPLIT_FENCE();                                                                          \
    for (int p_ = 0; wg < CONSUMERS && parts_ > 1 && p_ < parts_; ++p_)                      \
        KSPLIT_ADD_SLICE(p_);

#endif
