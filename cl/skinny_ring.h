/* A ring of B's vectors per work-item, filled by asynchronous copies (RING = D > 0).  Included
 * by cl/11_skinny.cl.
 *
 * Why: a work-item of step 11 keeps UNROLL loads of B in registers before it uses the first,
 * and at M = 16 its BM x RN sums already take most of its registers, so UNROLL stays at 1:
 * each lane waits a whole memory latency per block of k, and between a group's start and its
 * first sums nothing covers it.  More loads in registers cost occupancy (every UNROLL=2 form
 * ran slower).  Where the hardware copies global memory into local memory without registers
 * (NVIDIA's cp.async, compute capability 8.0 and later), a lane can keep D blocks in flight at
 * the price of local memory instead: it copies the vectors of block kb + D·KT into a slot of
 * its own ring while it multiplies block kb out of another.
 *
 * The slots are the lane's own (vector o of slot s at ring[(s·OWN + o)·WG + tid], so that a
 * warp's 16-byte accesses are contiguous), so no other work-item waits for them and no
 * barrier is needed: cp.async.wait_group orders a lane's copies before its own reads.  Every
 * turn commits one group of copies, empty once the lane's k is exhausted, so "all but the
 * newest D - 1 groups have landed" always means "this turn's slot has".  Elsewhere the copy is
 * a plain load and store at issue time: the same values in the same slots, which the tests
 * check on any device.  The sums are those of the kernel without the ring, bit for bit. */
#ifndef CLGEMM_SKINNY_RING_H
#define CLGEMM_SKINNY_RING_H

#ifndef RING
#define RING 0
#endif
#if RING < 0 || RING > 8
#error "gemm_skinny: RING must be 0 (off) to 8 slots"
#endif
#if RING && UNROLL != 1
#error "gemm_skinny: RING keeps B's blocks in flight itself; UNROLL must be 1 with it"
#endif

#if RING
#if defined(CLGEMM_NV_SM80) && CLGEMM_NV_SM80
/* The local-memory state-space address of a __local pointer is its value as an integer. */
#define SK_COPY(dst, src) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"           \
    :: "r"((uint)(size_t)(dst)), "l"((ulong)(src)) : "memory")
#define SK_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
/* wait_group takes an immediate: D - 1 spelled out for each D */
#if RING == 1
#define SK_WAIT() asm volatile("cp.async.wait_group 0;" ::: "memory")
#elif RING == 2
#define SK_WAIT() asm volatile("cp.async.wait_group 1;" ::: "memory")
#elif RING == 3
#define SK_WAIT() asm volatile("cp.async.wait_group 2;" ::: "memory")
#elif RING == 4
#define SK_WAIT() asm volatile("cp.async.wait_group 3;" ::: "memory")
#elif RING == 5
#define SK_WAIT() asm volatile("cp.async.wait_group 4;" ::: "memory")
#elif RING == 6
#define SK_WAIT() asm volatile("cp.async.wait_group 5;" ::: "memory")
#elif RING == 7
#define SK_WAIT() asm volatile("cp.async.wait_group 6;" ::: "memory")
#else
#define SK_WAIT() asm volatile("cp.async.wait_group 7;" ::: "memory")
#endif
#else
#define SK_COPY(dst, src) (*(dst) = sk_load(src))
#define SK_COMMIT() ((void)0)
#define SK_WAIT() ((void)0)
#endif

/* The ring's state in the kernel: the next block of k to copy, the slot it goes to and the
 * slot this turn reads.  Declared where the lane is known. */
#define SK_RING_STATE(first_kb) int sk_kf_ = (first_kb), sk_slot_ = 0
#define SK_RING_AT(slot, o) (&sk_ring[((slot) * SK_OWN + (o)) * WG + tid])

/* Copies the SK_OWN vectors of block sk_kf_ (ADDR(o, kb): the o-th vector's address) into
 * slot `slot` and commits them, an empty group past k's end. */
#define SK_RING_FETCH(ADDR, slot)                                                            \
    do {                                                                                     \
        if (sk_kf_ < kv)                                                                     \
            _Pragma("unroll") for (int o_ = 0; o_ < SK_OWN; ++o_)                            \
                SK_COPY(SK_RING_AT(slot, o_), ADDR(o_, sk_kf_));                             \
        SK_COMMIT();                                                                         \
        sk_kf_ += KT;                                                                        \
    } while (0)

/* The first D blocks, before the loop. */
#define SK_RING_START(ADDR)                                                                  \
    _Pragma("unroll") for (int s_ = 0; s_ < RING; ++s_) SK_RING_FETCH(ADDR, s_)

/* This turn's slot (its copies landed: all but the newest D - 1 groups have), read into
 * raw[0 .. SK_OWN - 1]; then the slot takes block kb + D·KT, and the ring turns. */
#define SK_RING_TAKE(ADDR, raw)                                                              \
    do {                                                                                     \
        SK_WAIT();                                                                           \
        _Pragma("unroll") for (int o_ = 0; o_ < SK_OWN; ++o_)(raw)[o_] =                     \
            *SK_RING_AT(sk_slot_, o_);                                                       \
        SK_RING_FETCH(ADDR, sk_slot_);                                                       \
        sk_slot_ = sk_slot_ == RING - 1 ? 0 : sk_slot_ + 1;                                  \
    } while (0)
#endif

#endif
