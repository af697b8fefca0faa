/* Step 10's loops around the slices (included by 10_wgmma_tma.cl after its tile macros):
 * PROMOTE's chains of wgmmas summed into fp32 (tf32x3), and the problems of a batch that one
 * work-group computes (PERSIST). */
#ifndef CLGEMM_TMA_LOOPS_H
#define CLGEMM_TMA_LOOPS_H

/* With PROMOTE: whether slice i ends a chain, and the chain's sum added to the fp32 sums. */
#define TMA_CHAIN_CLOSES(i) \
    (PROMOTE && ((i) % (PROMOTE + !PROMOTE) == PROMOTE - 1 || (i) == slices - 1))
#if PROMOTE
#define TMA_PROMOTE()                                                                        \
    do {                                                                                     \
        _Pragma("unroll") for (int j = 0; j < WG_NI; ++j)                                    \
        _Pragma("unroll") for (int q = 0; q < WGN / 2; ++q) {                                \
            WGMMA_KEEP(acc[j][q]);                                                           \
            sums[j][q] += acc[j][q];                                                         \
            acc[j][q] = 0.0f;                                                                \
        }                                                                                    \
    } while (0)
#define TMA_RESULT sums
#else
#define TMA_PROMOTE() ((void)0)
#define TMA_RESULT acc
#endif

/* The problems of the batch this group computes, one after another: with PERSIST, z, z + Z,
 * z + 2Z .. for group z of a launch Z deep (host/lib/enqueue.c chooses Z); else problem z
 * alone.  run counts them: slice i of the run-th is the ring's slice run * slices + i. */
#if PERSIST
#define FOR_EACH_PROBLEM                                                                     \
    for (int prob = (int)get_group_id(2), run = 0; prob < batch;                             \
         prob += (int)get_num_groups(2), ++run)
#else
#define FOR_EACH_PROBLEM for (int prob = (int)get_group_id(2), run = 0; run < 1; ++run)
#endif
#if GEMM_BATCHED /* C's problem; A's and B's for the emulated copies */
#define MOVE_TO_PROBLEM(p)                                                                   \
    (A = A0_ + (size_t)(p) * strideA, B = B0_ + (size_t)(p) * strideB,                       \
     C = C0_ + (size_t)(p) * strideC)
#else
#define MOVE_TO_PROBLEM(p) ((void)(p), A = A0_, B = B0_, C = C0_)
#endif

#endif
