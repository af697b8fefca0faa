/* PACKA / PACKB = 2 for cl/10_wgmma_tma.cl (TF32): an operand read where it lies, rounded to
 * tf32 in local memory after its copy lands and before a wgmma reads it (TF32 wgmma would
 * truncate it).  Included after the kernel's definitions (A_BYTES, STAGE_BYTES, CONSUMERS,
 * PRODUCER0, ROUNDERS).  Two ways:
 *
 *  - ROUNDER = 0: the consumers round each slot themselves between waiting for its copy and
 *    issuing their wgmmas, then fence the async proxy (wgmma reads by it) and meet at a
 *    named barrier.  Every slice's read and write of its boxes lies on the consumers' path.
 *  - ROUNDER = 1: a warpgroup after the producer warp rounds each slot as its copy lands, a
 *    slot ahead of the consumers, and every one of its work-items arrives on the slot's third
 *    mbarrier ("rounded", after "full" and "empty") once its share is written and fenced.
 *    The consumers wait for "rounded" instead of "full".  The producer still refills a slot
 *    only after the consumers released it, so the rounder never writes a slot that is being
 *    multiplied.  Its 128 work-items take registers (two consumers: 416 work-items, at most
 *    152 registers each), which the narrow tiles of small M can spare.  It moves the
 *    local-memory traffic off the consumers' path but does not remove it: at 4096^3, where
 *    that traffic is the limit, even three rounding warps beside the producer warp (so that
 *    the 256-wide tile keeps its registers) ran 0.47 ms against the pre-pass's 0.44
 *    (bench/results/2026-11-24_nvidia-h100/rounder/probe27.txt). */
#ifndef CLGEMM_TMA_ROUND_H
#define CLGEMM_TMA_ROUND_H

/* The bytes of a slot to round: A's box, then B's.  With B_SPLIT_LOCAL (tf32x3, PACKB 2) B's
 * values are split instead: hi in place, the residuals into the lo box B_BOX bytes on. */
#define ROUND_FROM (PACKA == 2 ? 0 : A_BYTES)
#define ROUND_BYTES                                                                          \
    ((B_SPLIT_LOCAL ? A_BYTES + B_BOX : PACKB == 2 ? STAGE_BYTES : A_BYTES) - ROUND_FROM)
/* The first float4 of slot s to round. */
#define TMA_ROUND_BASE(s) ((__local float4 *)(wgmma_arena_w_ + (s) * STAGE_BYTES + ROUND_FROM))
/* Slot s's bytes, shared by the n work-items that round them (id among them). */
#if B_SPLIT_LOCAL
#define TMA_ROUND_SLOT_BY(s, id, n)                                                          \
    tf32_split_local(TMA_ROUND_BASE(s), ROUND_BYTES / 16, B_BOX / 16, id, n)
#else
#define TMA_ROUND_SLOT_BY(s, id, n) tf32_round_local(TMA_ROUND_BASE(s), ROUND_BYTES / 16, id, n)
#endif
#define TMA_ROUND_SLOT(s, n) TMA_ROUND_SLOT_BY(s, tid, n)

#if ROUNDER
#define TMA_ROUNDED0 (empty0 + 8u * STAGES) /* rounded[s]: the third row of mbarriers */
/* The rounder's share of a slot, all of it loaded before any of it is written back, so that
 * the loads' latencies overlap; rounding a float4 at a time, each waited for its load. */
#define ROUND_EACH (ROUND_BYTES / 16 / ROUNDERS)
#if ROUND_EACH * ROUNDERS * 16 == ROUND_BYTES
inline void tma_round_share(__local float4 *p, const int id)
{
    float4 v[ROUND_EACH];
#pragma unroll
    for (int j = 0; j < ROUND_EACH; ++j)
        v[j] = p[id + j * ROUNDERS];
#pragma unroll
    for (int j = 0; j < ROUND_EACH; ++j) {
        const float4 hi = tf32_round4(v[j]);
        p[id + j * ROUNDERS] = hi;
#if B_SPLIT_LOCAL
        p[id + j * ROUNDERS + B_BOX / 16] = tf32_lo4(v[j], hi);
#endif
    }
}
#define TMA_ROUND_SHARE(s, id) tma_round_share(TMA_ROUND_BASE(s), id)
#else
#define TMA_ROUND_SHARE(s, id) TMA_ROUND_SLOT_BY(s, id, ROUNDERS)
#endif
/* The rounder's whole life: every slice of the group, then it leaves. */
#define TMA_ROUNDER()                                                                        \
    do {                                                                                     \
        if (tid >= PRODUCER0 + PRODUCER_THREADS) {                                           \
            for (int i = 0; i < slices; ++i) {                                               \
                const int s = i % STAGES;                                                    \
                TMA_WAIT(full0 + 8u * s, (uint)((i / STAGES) & 1));                          \
                TMA_ROUND_SHARE(s, tid - (PRODUCER0 + PRODUCER_THREADS));                    \
                WGMMA_PROXY_FENCE();                                                         \
                TMA_ARRIVE(TMA_ROUNDED0 + 8u * s);                                           \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
    } while (0)
/* A consumer: slot s copied and rounded (phase parity) */
#define TMA_WAIT_ROUNDED(s, parity) TMA_WAIT(TMA_ROUNDED0 + 8u * (s), parity)
#elif ROUND_LOCAL /* the consumers round a share each; wgmma then reads it by the async proxy */
#define TMA_WAIT_ROUNDED(s, parity)                                                          \
    do {                                                                                     \
        TMA_WAIT(full0 + 8u * (s), parity);                                                  \
        TMA_ROUND_SLOT(s, CONSUMERS * WGMMA_THREADS);                                        \
        WGMMA_PROXY_FENCE();                                                                 \
        asm volatile("bar.sync 1, %0;" ::"r"(CONSUMERS * WGMMA_THREADS) : "memory");         \
    } while (0)
#else /* nothing to round */
#define TMA_WAIT_ROUNDED(s, parity) TMA_WAIT(full0 + 8u * (s), parity)
#endif

#endif
