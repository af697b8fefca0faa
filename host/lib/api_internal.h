/* What the two halves of the public API (api.c: devices and contexts; api_gemm.c: plans
 * and GEMMs) share. */
#ifndef CLGEMM_API_INTERNAL_H
#define CLGEMM_API_INTERNAL_H

#include <pthread.h>

#include "clgemm.h"
#include "device.h"
#include "gemm.h"

/* One built variant of an algorithm: registry row + element type + parameter overrides.
 * Nodes never move once made (threads hold pointers to them), so they form a list. */
struct ctx_plan {
    struct ctx_plan *next;
    const algo_def *algo;
    clgemm_dtype dtype;
    char overrides[192];
    plan_status status;
    gemm_plan plan;
    char why[512];
    char *log;
    pthread_mutex_t enqueue; /* clSetKernelArg + enqueue on one cl_kernel must not interleave */
};

struct clgemm_context {
    const device_info *dev;
    cl_context ctx;
    cl_command_queue queue;
    pthread_mutex_t build; /* one build at a time, each variant built once */
    struct ctx_plan *plans;
};

/* Sets the calling thread's clgemm_last_error() to "fn: message" and returns st. */
clgemm_status api_fail(const char *fn, clgemm_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Clears it and returns CLGEMM_SUCCESS. */
clgemm_status api_ok(void);

/* Releases every plan of the context (clgemm_close). */
void api_plans_release(clgemm_context *ctx);

#endif
