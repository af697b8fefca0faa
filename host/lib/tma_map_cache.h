/* Step 10's kept tensor maps (cl/mma/tma.h, "Kept maps").
 *
 * Every group of a step 10 launch publishes its tensor maps before its first copy, because
 * the host does not know the buffers' device addresses.  The first group also stores them to
 * a keep slot the host names, so that the next call on the same in-order queue with the same
 * maps (the same buffers, offsets and shapes) copies through that slot and publishes nothing.
 * This file remembers which keep slot holds what.
 *
 * A kept slot holds device addresses, so it must never serve a buffer it was not written
 * for: a released buffer's handle can come back for a new one.  Every buffer whose maps are
 * kept is watched (clSetMemObjectDestructorCallback); its release advances a process-wide
 * epoch, and a kept slot of an older epoch is forgotten. */
#ifndef CLGEMM_TMA_MAP_CACHE_H
#define CLGEMM_TMA_MAP_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include <CL/cl.h>

#include "tensor_map.h"

/* Keep slots per plan: calls that alternate between this many operand sets all find theirs. */
#define TMA_MAP_KEEP_SLOTS 16

/* What a call's maps are made of: the host-encoded maps (placeholder addresses) and the
 * buffers and element offsets the kernel puts in. */
typedef struct tma_map_key {
    /* As bytes: a tensor_map's 64-byte alignment would pass to the plan's scratch, which
     * malloc does not align so (UBSan caught it). */
    unsigned char maps[3 * sizeof(tensor_map)];
    cl_mem buf[3];
    size_t off[3];
    int cmap;
} tma_map_key;

typedef struct tma_map_cache {
    struct {
        bool kept;
        unsigned long epoch;
        tma_map_key key;
    } slot[TMA_MAP_KEEP_SLOTS];
    int next; /* the slot a new set takes (round robin) */
} tma_map_cache;

/* Forgets every kept slot (its buffer of slots is new). */
void tma_map_cache_clear(tma_map_cache *c);

/* The keep slot for this call's maps: *kept true where an earlier call wrote them there (the
 * kernel copies through them and publishes nothing), false where this call is to write them
 * (tma_map_cache_written once it is enqueued).  -1 with the reason in e where a buffer cannot
 * be watched (then the call publishes and keeps nothing). */
int tma_map_cache_find(tma_map_cache *c, const tma_map_key *key, bool *kept, errbuf *e);

/* The call that writes keep slot `at` is enqueued: later calls may read it. */
void tma_map_cache_written(tma_map_cache *c, int at, const tma_map_key *key);

/* The process-wide epoch (advanced by every watched buffer's release). */
unsigned long tma_map_cache_epoch(void);

#endif
