/* The commands of one clgemm_gemm call (gemm_call.c): which are its first and last (the
 * events the caller asked for), and their order on a queue that does not keep it itself. */
#ifndef CLGEMM_CHAIN_H
#define CLGEMM_CHAIN_H

#include <stdbool.h>

#include "gemm.h"

/* The first and last commands of a call, and the order of its commands on a queue that does
 * not keep it itself (a barrier before every command but the first). */
typedef struct chain {
    cl_command_queue q;
    bool unordered, want_first, want_last;
    int commands;
    cl_event first, last;
} chain;

/* Before each command of the call but the first: a barrier where the queue does not keep
 * the order itself.  0, or -1 with e set. */
int chain_fence(chain *c, errbuf *e);
/* The event the next command should give back (NULL: neither end is wanted from it). */
cl_event *chain_want(chain *c, cl_event *slot);
/* Takes the references of f (the first command of what was enqueued) and l (its last). */
void chain_record(chain *c, cl_event f, cl_event l);
/* One command's event as both ends. */
void chain_one(chain *c, cl_event ev);

#endif
