/* --cold-l2: evicting the device's L2 cache before each timed run, outside the run's events. */
#ifndef CLGEMM_COLD_L2_H
#define CLGEMM_COLD_L2_H

#include <stdbool.h>

#include "clerr.h"
#include "runner.h"
#include "session.h"

/* The scratch buffer read before each timed run: five times the 50 MiB L2 of an H100 or H200,
 * and more than any GPU's L2 we know. */
#define COLD_L2_BYTES ((size_t)256 << 20)

typedef struct cold_l2 {
    cl_mem scratch, sink;
    cl_program program;
    cl_kernel kernel;
    size_t global, local;
    bool write; /* CLGEMM_COLD_L2_WRITE=1: the former eviction, a fill (bench/ only) */
} cold_l2;

/* Creates the scratch buffer (written once here, so that its first reading is not its
 * allocation) and the kernel that reads it.  0 on success. */
int cold_l2_create(session *s, cold_l2 *c, errbuf *e);

/* Enqueues one eviction on the session's queue; the queue is in order, so the run enqueued
 * next starts after it ends.  `seq` varies the fill of the write form. */
int cold_l2_enqueue(session *s, const cold_l2 *c, unsigned seq, errbuf *e);

void cold_l2_release(cold_l2 *c);

/* "read", or "write" where CLGEMM_COLD_L2_WRITE=1 asks for the former eviction. */
const char *cold_l2_method(void);

#endif
