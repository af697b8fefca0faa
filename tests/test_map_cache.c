/* The bookkeeping of step 10's kept maps (host/lib/tma_map_cache.h) on any OpenCL device:
 * which keep slot a call gets, when it finds its maps kept, and that releasing a watched
 * buffer forgets every kept slot (a new buffer may come back at the released handle).  The
 * kernels' side of it runs on NVIDIA Hopper alone: tests/test_kept_maps.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "tma_map_cache.h"
#include "expect.h"

static tma_map_key key_of(cl_mem a, cl_mem b, cl_mem c, size_t off_a, unsigned char shape)
{
    tma_map_key k;
    memset(&k, 0, sizeof k);
    k.buf[0] = a, k.buf[1] = b, k.buf[2] = c;
    k.off[0] = off_a;
    memset(k.maps, shape, sizeof k.maps); /* stands for the host-encoded maps */
    k.cmap = 1;
    return k;
}

/* The slot a call gets, and whether it found its maps kept; the call is then "enqueued". */
static int call(tma_map_cache *c, const tma_map_key *k, bool *kept)
{
    errbuf e = { "" };
    const int at = tma_map_cache_find(c, k, kept, &e);
    if (at >= 0 && !*kept)
        tma_map_cache_written(c, at, k);
    return at;
}

int main(void)
{
    const char *spec = getenv("CLGEMM_TEST_DEVICE");
    clgemm_context *ctx;
    if (clgemm_open(spec && *spec ? spec : NULL, &ctx) != CLGEMM_SUCCESS) {
        fprintf(stderr, "test_map_cache: %s\n", clgemm_last_error());
        return 1;
    }
    cl_int st;
    cl_mem b[TMA_MAP_KEEP_SLOTS + 4];
    for (size_t i = 0; i < sizeof b / sizeof *b; i++)
        b[i] = clCreateBuffer(clgemm_cl_context(ctx), CL_MEM_READ_WRITE, 64, NULL, &st);

    static tma_map_cache c;
    tma_map_cache_clear(&c);
    bool kept;
    const tma_map_key k0 = key_of(b[0], b[1], b[2], 0, 1);
    const int at0 = call(&c, &k0, &kept);
    EXPECT(at0 >= 0 && !kept);                 /* a first call writes its slot */
    EXPECT(call(&c, &k0, &kept) == at0 && kept); /* the same call reads it */
    /* Any part of the key differs: another slot, written anew. */
    tma_map_key k1 = key_of(b[0], b[1], b[3], 0, 1);
    EXPECT(call(&c, &k1, &kept) != at0 && !kept);
    k1 = key_of(b[0], b[1], b[2], 8, 1);
    EXPECT(call(&c, &k1, &kept) != at0 && !kept);
    k1 = key_of(b[0], b[1], b[2], 0, 2);
    EXPECT(call(&c, &k1, &kept) != at0 && !kept);
    k1 = key_of(b[0], b[1], b[2], 0, 1);
    k1.cmap = 0;
    EXPECT(call(&c, &k1, &kept) != at0 && !kept);
    EXPECT(call(&c, &k0, &kept) == at0 && kept); /* the first is still kept */
    /* A slot found but never written (its call failed to enqueue) is not read. */
    const tma_map_key k2 = key_of(b[4], b[5], b[6], 0, 1);
    errbuf e = { "" };
    EXPECT(tma_map_cache_find(&c, &k2, &kept, &e) >= 0 && !kept);
    EXPECT(tma_map_cache_find(&c, &k2, &kept, &e) >= 0 && !kept);
    /* Releasing a watched buffer (one of k0's: b[3] was watched by k1's first call) forgets
     * every kept slot. */
    const unsigned long before = tma_map_cache_epoch();
    clReleaseMemObject(b[3]);
    b[3] = NULL;
    EXPECT(tma_map_cache_epoch() != before);
    EXPECT(call(&c, &k0, &kept) >= 0 && !kept);
    EXPECT(call(&c, &k0, &kept) >= 0 && kept);
    /* More operand sets than slots in turn: each written again, never read stale. */
    tma_map_cache_clear(&c);
    int reads = 0;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < TMA_MAP_KEEP_SLOTS + 1; i++) {
            const tma_map_key k = key_of(b[0], b[1], b[2], (size_t)i * 8, 1);
            EXPECT(call(&c, &k, &kept) >= 0);
            reads += kept;
        }
    EXPECT(reads == 0);
    for (size_t i = 0; i < sizeof b / sizeof *b; i++)
        if (b[i])
            clReleaseMemObject(b[i]);
    clgemm_close(ctx);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
