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
 *   1. every group writes its fp32 sums to partial product z (parts x M x ldp floats);
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
 * Needs: CONSUMERS, WG_NI, WGN, TMA_RESULT, and the kernel's tid, wg, row0, col0, M, N,
 * kpart, partials, ldp, tile_counts and __local int ksplit_last_[1]. */
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
#define KSPLIT_PUT2(p, v0, v1) (KSPLIT_PUT1(p, v0), KSPLIT_PUT1((p) + 1, v1))
#define KSPLIT_GET1(p) as_float(atomic_or((volatile __global int *)(p), 0))
#define KSPLIT_GET2(p) ((float2)(KSPLIT_GET1(p), KSPLIT_GET1((p) + 1)))
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
/* A pair of columns as one 8-byte access: a warp covers whole 32-byte sectors of 8 rows.
 * Plain loads: the fence each reader executes after the count orders them after the
 * writers' fences (PTX's fence-fence synchronization through the atomic). */
#define KSPLIT_PUT2(p, v0, v1) (*(__global float2 *)(p) = (float2)((v0), (v1)))
#define KSPLIT_GET2(p) (*(const __global float2 *)(p))
#define KSPLIT_RESET(p) (*(p) = 0)
#endif

/* Element (r, c) of this group's block of C in partial product p. */
#define KSPLIT_AT(p, r, c) (partials + ((size_t)(p) * M + row0 + (r)) * ldp + col0 + (c))

/* Each work-item's sums, as the stores below the kernel's loop walk them: columns c and c + 1
 * of every 8 in rows r and r + 8 (the wgmma accumulator layout), a pair at a time.  A pair
 * whose first column lies in C moves whole: its second may lie past N, in the row's padding
 * (ldp is N rounded up to 8 and c is even), and never reaches C. */
#define KSPLIT_FOR_EACH_PAIR(body)                                                           \
    do {                                                                                     \
        const int kw_ = (tid / 32) % 4, kg_ = (tid % 32) >> 2, kt_ = tid & 3;                \
        _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                    \
        _Pragma("unroll") for (int c8 = 0; c8 < WGN / 8; ++c8)                               \
        _Pragma("unroll") for (int h2 = 0; h2 < 2; ++h2) {                                   \
            const int kr_ = wg * 64 + kw_ * 16 + kg_ + 8 * h2;                               \
            const int kc_ = j * WGN + c8 * 8 + 2 * kt_;                                      \
            if (kr_ < M - row0 && kc_ < N - col0) {                                          \
                body;                                                                        \
            }                                                                                \
        }                                                                                    \
    } while (0)

#define KSPLIT_V0 TMA_RESULT[j][4 * c8 + 2 * h2]
#define KSPLIT_V1 TMA_RESULT[j][4 * c8 + 2 * h2 + 1]

/* Step 3 adds one slice at a time, the pairs innermost: the loads of a slice are unconditional
 * and independent, so a work-item has all of them in flight at once.  (Taking the group's own
 * slice from its registers inside the sum, as this file first did, made each load wait for
 * the one before it: ksplit/probe_sum_costs.txt in bench/results/2026-11-24_nvidia-h100.) */
#define KSPLIT_ADD_SLICE(p)                                                                  \
    KSPLIT_FOR_EACH_PAIR({                                                                   \
        const float2 s_ = KSPLIT_GET2(KSPLIT_AT(p, kr_, kc_));                               \
        KSPLIT_V0 = (p) == 0 ? s_.x : KSPLIT_V0 + s_.x;                                      \
        KSPLIT_V1 = (p) == 0 ? s_.y : KSPLIT_V1 + s_.y;                                      \
    })

/* Steps 1 to 3; a group that does not finish its block returns.  Statements, not a block:
 * the barriers stay at the kernel's top level, where PoCL's emulation expects them (one
 * launch over a single slice runs them too, and stores as an unsplit group). */
#define TMA_KSPLIT_FINISH()                                                                  \
    const int parts_ = (int)get_num_groups(2);                                               \
    if (parts_ > 1 && wg < CONSUMERS)                                                        \
        KSPLIT_FOR_EACH_PAIR(KSPLIT_PUT2(KSPLIT_AT(kpart, kr_, kc_), KSPLIT_V0, KSPLIT_V1)); \
    KSPLIT_FENCE();                                                                          \
    KSPLIT_SYNC();                                                                           \
    if (tid == 0) {                                                                          \
        __global int *count_ =                                                               \
            tile_counts + get_group_id(1) * get_num_groups(0) + get_group_id(0);             \
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
