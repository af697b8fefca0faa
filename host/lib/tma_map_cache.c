/* The kept tensor maps of host/lib/tma_map_cache.h. */
#include "tma_map_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The watched buffers and the epoch, shared by every plan of the process: a buffer's release
 * callback may run on any thread, and after the plan that watched it is gone. */
static struct {
    pthread_mutex_t lock;
    unsigned long epoch;
    cl_mem *watched;
    size_t count, room;
} watch = { PTHREAD_MUTEX_INITIALIZER, 1, NULL, 0, 0 };

unsigned long tma_map_cache_epoch(void)
{
    pthread_mutex_lock(&watch.lock);
    const unsigned long epoch = watch.epoch;
    pthread_mutex_unlock(&watch.lock);
    return epoch;
}

/* Called by OpenCL just before a watched buffer is deleted: its handle may be reused from
 * now on, so every slot kept so far is stale. */
static void CL_CALLBACK released(cl_mem buf, void *unused)
{
    (void)unused;
    pthread_mutex_lock(&watch.lock);
    watch.epoch++;
    for (size_t i = 0; i < watch.count; i++)
        if (watch.watched[i] == buf) {
            watch.watched[i] = watch.watched[--watch.count];
            break;
        }
    pthread_mutex_unlock(&watch.lock);
}

/* Watches buf once; 0, or -1 with the reason in e. */
static int watch_buffer(cl_mem buf, errbuf *e)
{
    int rc = 0;
    pthread_mutex_lock(&watch.lock);
    bool seen = false;
    for (size_t i = 0; i < watch.count && !seen; i++)
        seen = watch.watched[i] == buf;
    if (!seen) {
        if (watch.count == watch.room) {
            const size_t room = watch.room ? 2 * watch.room : 64;
            cl_mem *grown = realloc(watch.watched, room * sizeof *grown);
            if (!grown) {
                err_set(e, "out of host memory for the watched buffers");
                rc = -1;
                goto done;
            }
            watch.watched = grown;
            watch.room = room;
        }
        const cl_int st = clSetMemObjectDestructorCallback(buf, released, NULL);
        if (st != CL_SUCCESS) {
            err_set(e, "clSetMemObjectDestructorCallback failed: %s", cl_error_name(st));
            rc = -1;
            goto done;
        }
        watch.watched[watch.count++] = buf;
    }
done:
    pthread_mutex_unlock(&watch.lock);
    return rc;
}

void tma_map_cache_clear(tma_map_cache *c) { memset(c, 0, sizeof *c); }

static bool same_key(const tma_map_key *a, const tma_map_key *b)
{
    return memcmp(a->buf, b->buf, sizeof a->buf) == 0 &&
           memcmp(a->off, b->off, sizeof a->off) == 0 && a->cmap == b->cmap &&
           memcmp(a->maps, b->maps, sizeof a->maps) == 0;
}

int tma_map_cache_find(tma_map_cache *c, const tma_map_key *key, bool *kept, errbuf *e)
{
    const unsigned long epoch = tma_map_cache_epoch();
    for (int i = 0; i < TMA_MAP_KEEP_SLOTS; i++)
        if (c->slot[i].kept && c->slot[i].epoch == epoch && same_key(&c->slot[i].key, key)) {
            *kept = true;
            return i;
        }
    *kept = false;
    for (int b = 0; b < 3; b++)
        if (key->buf[b] && watch_buffer(key->buf[b], e) != 0)
            return -1;
    const int at = c->next;
    c->next = (c->next + 1) % TMA_MAP_KEEP_SLOTS;
    c->slot[at].kept = false; /* until the call that writes it is enqueued */
    /* The epoch before the buffers were last looked at: a release from now on (the handle of
     * a buffer in the key free for another) makes the slot stale before it is ever read. */
    c->slot[at].epoch = epoch;
    return at;
}

void tma_map_cache_written(tma_map_cache *c, int at, const tma_map_key *key)
{
    c->slot[at].kept = true;
    c->slot[at].key = *key;
}
