/* Step 10's kernel arguments after those every GEMM kernel takes (host/lib/enqueue.c): the
 * tensor maps of A, B and C, the split's buffers, and where the groups publish their maps or
 * find them kept (tma_map_cache.h). */
#ifndef CLGEMM_TMA_ARGS_H
#define CLGEMM_TMA_ARGS_H

#include "gemm.h"
#include "tma_map_cache.h"

/* One call's maps: the keep slot where it finds them (kept) or stores them (-1: neither). */
typedef struct tma_call {
    int keep;
    bool kept;
    tma_map_key key;
} tma_call;

/* Sets step 10's arguments from *i on (advancing it) for a launch of `count` problems (kb:
 * the strides as the kernel sees them; ks: a split in the launch, or NULL).  0, or -1 with
 * the reason in e. */
int tma_set_args(const gemm_plan *plan, cl_command_queue q, cl_kernel k, cl_uint *i,
                 gemm_shape s, gemm_operand A, gemm_operand B, gemm_operand C, float beta,
                 const gemm_batch *kb, int count, const gemm_ksplit *ks, tma_call *call,
                 errbuf *e);

/* The launch that tma_set_args prepared is enqueued: a keep slot it fills may now be read. */
void tma_call_enqueued(const gemm_plan *plan, const tma_call *call);

#endif
