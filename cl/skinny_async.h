/* Step 11's weight stream through local memory (ASYNC = stages >= 2, B stored N x K only).
 * Included by cl/11_skinny.cl.
 *
 * Why: a work-item that loads B into registers can keep only UNROLL x RN vectors in flight,
 * and at M = 16 the partial sums (BM x RN of them) already hold most of its registers: the
 * M <= 16 rule runs UNROLL = 1, so a work-item waits for its vectors, computes, and only
 * then asks for the next ones, and the memory sits idle between.  Here every work-item
 * copies its next ASYNC - 1 vectors of B straight into a ring in local memory, without
 * registers: on NVIDIA with cp.async (sm_80 and later, CLGEMM_NV_CPASYNC set by the host),
 * which the memory completes while the work-item computes on earlier vectors.  A work-item
 * reads back only what it copied itself, so waiting for its own copies (cp.async.wait_group)
 * is all the synchronisation the ring needs: no barrier.  The sums are those of the register
 * form, in the same order, bit for bit.
 *
 * Elsewhere (and on PoCL, where the tests run) a copy is a plain load and store at issue:
 * the same values in the same slots, so the same results. */
#ifndef CLGEMM_SKINNY_ASYNC_H
#define CLGEMM_SKINNY_ASYNC_H

#ifndef ASYNC
#define ASYNC 0
#endif

#if ASYNC
#if !GEMM_TRANS_B
#error "gemm_skinny: ASYNC streams B stored N x K (an N T call) only"
#endif
#if ASYNC < 2 || UNROLL != 1
#error "gemm_skinny: ASYNC needs at least 2 stages and UNROLL=1 (the ring replaces UNROLL)"
#endif

#if CLGEMM_NV_CPASYNC
/* 16 bytes from global to local memory, bypassing L1 (.cg): B is read once. */
#define SK_CP16(dst, src)                                                                    \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((uint)(size_t)(dst)),   \
                 "l"((ulong)(src))                                                           \
                 : "memory")
#define SK_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
#define SK_WAIT_(n) asm volatile("cp.async.wait_group " #n ";" ::: "memory")
#define SK_WAIT(n) SK_WAIT_(n)
#else
#define SK_CP16(dst, src) (*(dst) = sk_load(src))
#define SK_COMMIT() ((void)0)
#define SK_WAIT(n) ((void)0)
#endif

/* Slot s of row r for this work-item: neighbouring work-items at neighbouring 16 bytes, so
 * that a warp's reads meet no bank twice. */
#define SK_RING(s, r) sk_ring[((s) * RN + (r)) * WG + tid]

/* Copies of this lane's vector kb of its RN rows into slot s (none past the lane's last
 * vector), then one commit either way: every work-item's group count stays the same, so
 * one wait count fits all. */
#define SK_ISSUE(s, kb)                                                                      \
    do {                                                                                     \
        if ((kb) < kv)                                                                       \
            _Pragma("unroll") for (int r_ = 0; r_ < RN; ++r_)                                \
                SK_CP16(&SK_RING(s, r_), b[r_] + (size_t)(kb) * VEC);                        \
        SK_COMMIT();                                                                         \
    } while (0)

/* Before the loop: the ring's first ASYNC - 1 slots on their way. */
#define SK_RING_START()                                                                      \
    __local sk_raw sk_ring[ASYNC * RN * WG];                                                 \
    int sk_slot = 0;                                                                         \
    _Pragma("unroll") for (int s_ = 0; s_ < ASYNC - 1; ++s_) SK_ISSUE(s_, lane + s_ * KT)

/* Vector kb, the one in slot sk_slot, into bv[0][*]: first the copy ASYNC - 1 vectors ahead
 * goes into the slot read last time (its values are in registers already), then the wait
 * until no more than the ASYNC - 1 newest groups are outstanding, which leaves kb's landed. */
#define SK_RING_NEXT(bv, kb)                                                                 \
    do {                                                                                     \
        SK_ISSUE(sk_slot == 0 ? ASYNC - 1 : sk_slot - 1, (kb) + (ASYNC - 1) * KT);           \
        SK_WAIT(ASYNC - 1);                                                                  \
        _Pragma("unroll") for (int r_ = 0; r_ < RN; ++r_) bv[0][r_] = SK_RING(sk_slot, r_);  \
        sk_slot = sk_slot == ASYNC - 1 ? 0 : sk_slot + 1;                                    \
    } while (0)
#endif

#endif
