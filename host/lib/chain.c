/* The command chain of a call (chain.h). */
#include "chain.h"

int chain_fence(chain *c, errbuf *e)
{
    return c->commands++ ? gemm_queue_fence(c->q, c->unordered, e) : 0;
}

/* The event the next command should give back (NULL: neither end is wanted from it). */
cl_event *chain_want(chain *c, cl_event *slot)
{
    *slot = NULL;
    return (c->want_first && !c->first) || c->want_last ? slot : NULL;
}

/* Takes the references of f (the first command of what was enqueued) and l (its last). */
void chain_record(chain *c, cl_event f, cl_event l)
{
    if (f && c->want_first && !c->first) {
        c->first = f;
        f = NULL;
    }
    if (l && c->want_last) {
        if (c->last)
            clReleaseEvent(c->last);
        c->last = l;
        l = NULL;
    }
    if (f)
        clReleaseEvent(f);
    if (l)
        clReleaseEvent(l);
}

/* One command's event as both ends. */
void chain_one(chain *c, cl_event ev)
{
    if (ev)
        clRetainEvent(ev);
    chain_record(c, ev, ev);
}
