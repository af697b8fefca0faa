/* What the two halves of the public API (api.c: devices and contexts; api_gemm.c: plans
 * and GEMMs) share. */
#ifndef CLGEMM_API_INTERNAL_H
#define CLGEMM_API_INTERNAL_H

#include <pthread.h>

#include "clgemm.h"
#include "device.h"
#include "gemm.h"
#include "layout.h"

/* One built variant of an algorithm: registry row + element type + parameter overrides.
 * Nodes never move once made (threads hold pointers to them), so they form a list. */
struct ctx_plan {
    struct ctx_plan *next;
    const algo_def *algo;
    clgemm_dtype dtype;
    char overrides[192];
    gemm_build build; /* what was asked of the build (gemm.h) */
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
    layout_pass layout;    /* the layout pre-pass kernels, built at the first call needing them */
};

/* Sets the calling thread's clgemm_last_error() to "fn: message" and returns st. */
clgemm_status api_fail(const char *fn, clgemm_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Clears it and returns CLGEMM_SUCCESS. */
clgemm_status api_ok(void);

/* Releases every plan of the context (clgemm_close). */
void api_plans_release(clgemm_context *ctx);

/* The same plan built for launches over a batch (one NDRange, the batch in dimension 2), made
 * once per plan; NULL when out of host memory. */
struct ctx_plan *api_batched_twin(clgemm_context *ctx, const struct ctx_plan *p);

/* The plan that runs a row-major M x N x K problem for `algorithm` (NULL: auto, fp32 only):
 * tuned, named or the progression's (api_gemm.c), built as `build` asks (NULL: one problem,
 * untransposed, float C).  Operands it cannot read where they lie are packed for it
 * (layout.h), so their alignment plays no part in the choice.  Where a named plan fails to
 * build, *out is that plan (its log) and the status says why. */
clgemm_status api_choose(const char *fn, clgemm_context *ctx, const char *algorithm,
                         clgemm_dtype dtype, size_t M, size_t N, size_t K,
                         const gemm_build *build, struct ctx_plan **out);

/* The general call (gemm_call.c) behind clgemm_gemm and its wrappers; fn names the public
 * function called in messages. */
clgemm_status gemm_call(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *desc,
                        cl_command_queue queue, cl_event *first, cl_event *last);
/* What that call would run, as clgemm_resolve writes it (gemm_resolve.c; nothing is
 * enqueued). */
clgemm_status gemm_call_resolve(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *d,
                                char *out, size_t size);
/* The context's plan for (algorithm, element type, parameters, build), made once; NULL only
 * when out of host memory (api_gemm.c). */
struct ctx_plan *api_plan(clgemm_context *ctx, const algo_def *algo, clgemm_dtype dtype,
                          const char *overrides, const gemm_build *build);

/* The shape rule's choice for auto (algorithm NULL) or a purpose name, with its split count
 * (api_shape.c); false where no rule applies or its kernel cannot run here. */
bool api_choose_by_shape(clgemm_context *ctx, const char *algorithm, clgemm_dtype dtype,
                         size_t M, size_t N, size_t K, const gemm_build *build,
                         struct ctx_plan **out);
/* The same for the rank-th rule that applies (shape_rule_lookup_ranked; 0: the above). */
bool api_choose_by_shape_ranked(clgemm_context *ctx, const char *algorithm, clgemm_dtype dtype,
                                size_t M, size_t N, size_t K, const gemm_build *build,
                                int rank, struct ctx_plan **out);
/* A purpose name's first candidate with no rule: step 10's default tile replaced by a
 * narrower one where it leaves half the compute units or more idle (api_shape.c). */
void api_fill_tiles(clgemm_context *ctx, const algo_def *purpose, clgemm_dtype dtype, size_t M,
                    size_t N, const gemm_build *build, struct ctx_plan **out);
/* The same with fp32 data on step 10's wide tile: one operand rounded in registers, the
 * larger one (api_shape.c). */
void api_tf32_registers(clgemm_context *ctx, const algo_def *purpose, clgemm_dtype dtype,
                        size_t M, size_t N, const gemm_build *build, struct ctx_plan **out);
/* For a call that copies A first anyway: the registers form above with A rounded by that
 * copy instead (shape_tf32_copied_a_form); *out unchanged for any other plan. */
void api_tf32_copied_a(clgemm_context *ctx, struct ctx_plan **out);
/* Sets what clgemm_resolve_reason() says about the last choice of this thread. */
void api_reason(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What clgemm_describe and the prepare calls report of a plan. */
void api_fill_info(clgemm_build_info *info, const gemm_plan *g, const algo_def *algo);

/* A plan as a name that runs the same kernel with the same parameters. */
clgemm_status api_describe(const char *fn, const struct ctx_plan *p, char *out, size_t size);

#endif
