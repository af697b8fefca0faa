/* The public API (clgemm.h), second half: algorithms by name, plans, and the fixed-layout
 * GEMM calls, thin wrappers of the general call (gemm_call.c).  Every GEMM and
 * clgemm_resolve share one choice (api_choose()), so that resolve names exactly what the
 * GEMM would run for the same problem. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "registry.h"
#include "tuning.h"

#define OVERRIDES_MAX 192

void api_plans_release(clgemm_context *ctx)
{
    for (struct ctx_plan *p = ctx->plans, *next; p; p = next) {
        next = p->next;
        gemm_plan_release(&p->plan);
        free(p->log);
        pthread_mutex_destroy(&p->enqueue);
        free(p);
    }
    ctx->plans = NULL;
}

/* NULL only when out of host memory. */
static struct ctx_plan *plan_made(clgemm_context *ctx, const algo_def *algo,
                                  clgemm_dtype dtype, const char *overrides,
                                  const gemm_build *build)
{
    pthread_mutex_lock(&ctx->build);
    struct ctx_plan *p = ctx->plans;
    while (p && !(p->algo == algo && p->dtype == dtype && gemm_build_equal(&p->build, build) &&
                  strcmp(p->overrides, overrides) == 0))
        p = p->next;
    if (!p && (p = calloc(1, sizeof *p))) {
        errbuf e = { "" };
        p->algo = algo;
        p->dtype = dtype;
        p->build = *build;
        snprintf(p->overrides, sizeof p->overrides, "%s", overrides);
        pthread_mutex_init(&p->enqueue, NULL);
        p->status = gemm_plan_create(&p->plan, ctx->ctx, ctx->dev, algo, dtype, overrides,
                                     build, &p->log, &e);
        snprintf(p->why, sizeof p->why, "%s", e.msg);
        p->next = ctx->plans;
        ctx->plans = p;
    }
    pthread_mutex_unlock(&ctx->build);
    return p;
}

/* The one-problem, untransposed, float-C build of clgemm_prepare and clgemm_resolve. */
static const gemm_build plain_build = { .batched = false };

struct ctx_plan *api_plan(clgemm_context *ctx, const algo_def *algo, clgemm_dtype dtype,
                          const char *overrides, const gemm_build *build)
{
    return plan_made(ctx, algo, dtype, overrides, build ? build : &plain_build);
}

struct ctx_plan *api_batched_twin(clgemm_context *ctx, const struct ctx_plan *p)
{
    gemm_build b = p->build;
    b.batched = true;
    return plan_made(ctx, p->algo, p->dtype, p->overrides, &b);
}

static clgemm_status plan_status_to_api(const char *fn, const struct ctx_plan *p,
                                        const char *name)
{
    switch (p->status) {
    case PLAN_OK: return api_ok();
    case PLAN_UNSUPPORTED:
        return api_fail(fn, CLGEMM_ERROR_UNSUPPORTED, "%s: %s", name, p->why);
    case PLAN_INVALID:
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "%s: %s", name, p->why);
    case PLAN_BUILD_FAILED:
        return api_fail(fn, CLGEMM_ERROR_BUILD_FAILED, "%s: %s", name, p->why);
    case PLAN_ERROR: break;
    }
    return api_fail(fn, CLGEMM_ERROR_OPENCL, "%s: %s", name, p->why);
}

/* "name" or "name:KEY=VALUE,KEY=VALUE": the row, and its parameters checked against every
 * key the algorithm's kernels read (the device's own kernel checks again when built). */
static clgemm_status parse_algorithm(const char *fn, const char *text, const algo_def **algo,
                                     char *overrides)
{
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    if (!(*algo = algo_find_n(text, len)))
        return api_fail(fn, CLGEMM_ERROR_UNKNOWN_ALGORITHM, "unknown algorithm '%.*s'",
                        (int)len, text);
    if (colon && strlen(colon + 1) >= OVERRIDES_MAX)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "parameters too long in '%s'", text);
    snprintf(overrides, OVERRIDES_MAX, "%s", colon ? colon + 1 : "");
    errbuf e = { "" };
    if (gemm_params_check(*algo, overrides, &e) != 0)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "%s", e.msg);
    return CLGEMM_SUCCESS;
}

clgemm_status clgemm_check_algorithm(const char *algorithm)
{
    if (!algorithm)
        return api_fail(__func__, CLGEMM_ERROR_INVALID_ARGUMENT, "NULL algorithm");
    const algo_def *algo;
    char overrides[OVERRIDES_MAX];
    clgemm_status st = parse_algorithm(__func__, algorithm, &algo, overrides);
    return st == CLGEMM_SUCCESS ? api_ok() : st;
}

int clgemm_algorithm_has_dtype(const char *algorithm, clgemm_dtype dtype)
{
    const algo_def *algo;
    char overrides[OVERRIDES_MAX];
    if (!algorithm || !clgemm_dtype_name(dtype) ||
        parse_algorithm(__func__, algorithm, &algo, overrides) != CLGEMM_SUCCESS)
        return 0;
    return algo_takes(algo, dtype);
}

/* auto never changes the arithmetic: only fp32 algorithms are candidates. */
static bool is_fp32(const char *algorithm)
{
    const algo_def *a = algo_find(algorithm);
    return a && strcmp(a->desc.precision, "fp32") == 0;
}

/* What the GEMM runs: with parameters given, exactly that; else the tuned variant near this
 * size, then the name itself; with no name (fp32 only), the progression from its last fp32
 * step down, the first that runs on this device.  Operands the kernel cannot read where they
 * lie are packed for it (layout.h): offsets and leading dimensions play no part. */
clgemm_status api_choose(const char *fn, clgemm_context *ctx, const char *algorithm,
                         clgemm_dtype dtype, size_t M, size_t N, size_t K,
                         const gemm_build *build, struct ctx_plan **out)
{
    errbuf e = { "" };
    const algo_def *algo;
    char overrides[OVERRIDES_MAX];
    clgemm_status st;
    /* First the shape rule (small M, few tiles: api_shape.c), for auto and purpose names. */
    if (!(algorithm && strchr(algorithm, ':')) &&
        api_choose_by_shape(ctx, algorithm, dtype, M, N, K, build, out))
        return CLGEMM_SUCCESS;
    /* The tuning database holds fp32 SIMT measurements: 16-bit data never consults it. */
    const tuning_entry *t =
        dtype == CLGEMM_F32 && !(algorithm && strchr(algorithm, ':'))
            ? tuning_lookup(tuning_get(), ctx->dev->name, ctx->dev->driver, algorithm,
                            (long)M, (long)N, (long)K, is_fp32)
            : NULL;
    if (t && (algo = algo_find(t->algorithm)) && gemm_params_check(algo, t->params, &e) == 0) {
        struct ctx_plan *q = api_plan(ctx, algo, dtype, t->params, build);
        if (q && q->status == PLAN_OK) {
            api_reason("tuning entry of %s measured at %ldx%ldx%ld, the nearest size", t->device,
                       t->M, t->N, t->K);
            *out = q;
            return CLGEMM_SUCCESS;
        }
    }
    if (algorithm) {
        if ((st = parse_algorithm(fn, algorithm, &algo, overrides)) != CLGEMM_SUCCESS)
            return st;
        struct ctx_plan *p = api_plan(ctx, algo, dtype, overrides, build);
        if (!p)
            return api_fail(fn, CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
        if (p->status != PLAN_OK) {
            *out = p; /* for its build log (clgemm_prepare_gemm) */
            return plan_status_to_api(fn, p, algorithm);
        }
        if (algo->candidates)
            api_reason("no shape rule for M = %zu: %s's first candidate that runs here", M,
                       algo->desc.name);
        else
            api_reason("as named");
        *out = p;
        if (algo->candidates && !*overrides) {
            api_fill_tiles(ctx, algo, dtype, M, N, build, out);
            api_tf32_registers(ctx, algo, dtype, M, N, build, out);
        }
        return CLGEMM_SUCCESS;
    }
    size_t n;
    const algo_def *all = algos_all(&n);
    for (size_t i = n; i-- > 0;) {
        if (all[i].desc.step == 0 || all[i].by_shape ||
            strcmp(all[i].desc.precision, "fp32") != 0)
            continue; /* no change of arithmetic unasked; shapes' own steps by the rule only */
        struct ctx_plan *q = api_plan(ctx, &all[i], dtype, "", build);
        if (q && q->status == PLAN_OK) {
            api_reason("no shape rule or tuning entry for %zux%zux%zu: the last fp32 step that "
                       "runs here", M, N, K);
            *out = q;
            return CLGEMM_SUCCESS;
        }
    }
    return api_fail(fn, CLGEMM_ERROR_UNSUPPORTED, "no fp32 algorithm runs on this device");
}

void api_fill_info(clgemm_build_info *info, const gemm_plan *g, const algo_def *algo)
{
    params_to_text(&g->params, info->params, sizeof info->params);
    info->build_ms = g->build_ms;
    info->from_cache = g->from_cache;
    info->backend = g->variant ? g->variant->backend : "none";
    info->precision = g->precision ? g->precision : algo->desc.precision;
    info->runs = g->step ? g->step->desc.name : NULL;
    info->file = g->variant ? g->variant->file : NULL;
    info->kernel = g->variant ? g->variant->kernel : NULL;
}

clgemm_status clgemm_describe(clgemm_context *ctx, const char *algorithm, clgemm_dtype dtype,
                              clgemm_build_info *info)
{
    if (info)
        memset(info, 0, sizeof *info);
    if (!ctx || !algorithm)
        return api_fail(__func__, CLGEMM_ERROR_INVALID_ARGUMENT, "NULL argument");
    if (!clgemm_dtype_name(dtype))
        return api_fail(__func__, CLGEMM_ERROR_INVALID_ARGUMENT, "unknown dtype %d", (int)dtype);
    const algo_def *algo;
    char overrides[OVERRIDES_MAX];
    clgemm_status st = parse_algorithm(__func__, algorithm, &algo, overrides);
    if (st != CLGEMM_SUCCESS)
        return st;
    gemm_plan g;
    errbuf e = { "" };
    plan_status ps = gemm_plan_describe(&g, ctx->dev, algo, dtype, overrides, &e);
    if (info)
        api_fill_info(info, &g, algo);
    if (ps == PLAN_OK)
        return api_ok();
    return api_fail(__func__, ps == PLAN_INVALID ? CLGEMM_ERROR_INVALID_ARGUMENT
                                                 : CLGEMM_ERROR_UNSUPPORTED,
                    "%s: %s", algorithm, e.msg);
}

static clgemm_status prepare(const char *fn, clgemm_context *ctx, const char *algorithm,
                             clgemm_dtype dtype, clgemm_build_info *info);

clgemm_status clgemm_prepare(clgemm_context *ctx, const char *algorithm, clgemm_build_info *info)
{
    return prepare(__func__, ctx, algorithm, CLGEMM_F32, info);
}

clgemm_status clgemm_prepare_dtype(clgemm_context *ctx, const char *algorithm,
                                   clgemm_dtype dtype, clgemm_build_info *info)
{
    return prepare(__func__, ctx, algorithm, dtype, info);
}

static clgemm_status prepare(const char *fn, clgemm_context *ctx, const char *algorithm,
                             clgemm_dtype dtype, clgemm_build_info *info)
{
    if (info)
        memset(info, 0, sizeof *info);
    if (!ctx || !algorithm)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "NULL argument");
    if (!clgemm_dtype_name(dtype))
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "unknown dtype %d", (int)dtype);
    const algo_def *algo;
    char overrides[OVERRIDES_MAX];
    clgemm_status st = parse_algorithm(fn, algorithm, &algo, overrides);
    if (st != CLGEMM_SUCCESS)
        return st;
    struct ctx_plan *p = api_plan(ctx, algo, dtype, overrides, NULL);
    if (!p)
        return api_fail(fn, CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    if (info) {
        api_fill_info(info, &p->plan, algo);
        info->log = p->log;
    }
    return plan_status_to_api(fn, p, algorithm);
}

/* What clgemm_resolve writes: a name that runs the same kernel with the same parameters. */
clgemm_status api_describe(const char *fn, const struct ctx_plan *p, char *out, size_t size)
{
    const gemm_plan *g = &p->plan;
    int n;
    if (!*p->overrides && g->step == g->algo) {
        n = snprintf(out, size, "%s", g->algo->desc.name);
    } else {
        char text[256];
        params_to_text(&g->params, text, sizeof text);
        for (char *s = text; *s; s++)
            if (*s == ' ')
                *s = ',';
        n = snprintf(out, size, "%s:%s", g->step->desc.name, text);
    }
    if (n < 0 || (size_t)n >= size)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "output buffer of %zu bytes too "
                        "small: needs %d", size, n + 1);
    return api_ok();
}

static clgemm_status resolve(const char *fn, clgemm_context *ctx, const char *algorithm,
                             clgemm_dtype dtype, size_t M, size_t N, size_t K, size_t offA,
                             size_t lda, size_t offB, size_t ldb, size_t offC, size_t ldc,
                             char *out, size_t size)
{
    if (!ctx || !out || size == 0)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "NULL argument");
    if (!clgemm_dtype_name(dtype))
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "unknown dtype %d", (int)dtype);
    if (dtype != CLGEMM_F32 && !algorithm)
        algorithm = "tensor_core";
    if (M < 1 || N < 1 || K < 1 || M > INT_MAX || N > INT_MAX || K > INT_MAX ||
        lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX || offA > INT_MAX || offB > INT_MAX ||
        offC > INT_MAX)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "sizes, offsets and leading "
                        "dimensions must be below 2^31 (sizes at least 1)");
    /* Offsets and leading dimensions decide whether operands are packed, and what runs after
     * packing only where TF32 rounds A in registers and A (the kernel's: B where it runs
     * swapped) must be copied first, its rows off 16 bytes (api_tf32_copied_a, as clgemm_gemm
     * decides it). */
    struct ctx_plan *p = NULL;
    clgemm_status st = api_choose(fn, ctx, algorithm, dtype, M, N, K, NULL, &p);
    if (st != CLGEMM_SUCCESS)
        return st;
    if (p->plan.a_regs && ((p->plan.swap ? offB | ldb : offA | lda) & 3) != 0)
        api_tf32_copied_a(ctx, &p);
    return api_describe(fn, p, out, size);
}

clgemm_status clgemm_resolve_operands(clgemm_context *ctx, const char *algorithm,
                                      clgemm_dtype dtype, size_t M, size_t N, size_t K,
                                      size_t offA, size_t lda, size_t offB, size_t ldb,
                                      size_t offC, size_t ldc, char *out, size_t size)
{
    return resolve(__func__, ctx, algorithm, dtype, M, N, K, offA, lda, offB, ldb, offC, ldc, out,
                   size);
}

clgemm_status clgemm_resolve(clgemm_context *ctx, const char *algorithm, size_t M, size_t N,
                             size_t K, char *out, size_t size)
{
    /* Aligned, tight row-major operands. */
    return resolve(__func__, ctx, algorithm, CLGEMM_F32, M, N, K, 0, K, 0, N, 0, N, out, size);
}

/* The fixed-layout calls: row-major, N, N, one problem. */
static clgemm_status run(const char *fn, clgemm_context *ctx, const char *algorithm,
                         clgemm_dtype dtype, size_t M, size_t N, size_t K, float alpha,
                         cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
                         float beta, cl_mem C, size_t offC, size_t ldc, cl_command_queue queue,
                         cl_event *first, cl_event *last)
{
    const clgemm_gemm_desc d = { .algorithm = algorithm, .M = M, .N = N, .K = K,
                                 .alpha = alpha, .beta = beta, .ab_type = dtype,
                                 .A = A, .off_a = offA, .ld_a = lda,
                                 .B = B, .off_b = offB, .ld_b = ldb,
                                 .C = C, .off_c = offC, .ld_c = ldc };
    return gemm_call(fn, ctx, &d, queue, first, last);
}

clgemm_status clgemm_sgemm(clgemm_context *ctx, const char *algorithm, size_t M, size_t N,
                           size_t K, float alpha, cl_mem A, size_t offA, size_t lda,
                           cl_mem B, size_t offB, size_t ldb, float beta, cl_mem C,
                           size_t offC, size_t ldc, cl_command_queue queue, cl_event *event)
{
    return run(__func__, ctx, algorithm, CLGEMM_F32, M, N, K, alpha, A, offA, lda, B, offB,
               ldb, beta, C, offC, ldc, queue, NULL, event);
}

clgemm_status clgemm_sgemm_events(clgemm_context *ctx, const char *algorithm, size_t M,
                                  size_t N, size_t K, float alpha, cl_mem A, size_t offA,
                                  size_t lda, cl_mem B, size_t offB, size_t ldb, float beta,
                                  cl_mem C, size_t offC, size_t ldc, cl_command_queue queue,
                                  cl_event *first, cl_event *last)
{
    return run(__func__, ctx, algorithm, CLGEMM_F32, M, N, K, alpha, A, offA, lda, B, offB,
               ldb, beta, C, offC, ldc, queue, first, last);
}

clgemm_status clgemm_gemm_16bit(clgemm_context *ctx, const char *algorithm, clgemm_dtype dtype,
                                size_t M, size_t N, size_t K, float alpha, cl_mem A,
                                size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
                                float beta, cl_mem C, size_t offC, size_t ldc,
                                cl_command_queue queue, cl_event *event)
{
    if (dtype != CLGEMM_F16 && dtype != CLGEMM_BF16)
        return api_fail(__func__, CLGEMM_ERROR_INVALID_ARGUMENT,
                        "dtype must be CLGEMM_F16 or CLGEMM_BF16 (fp32 data: clgemm_sgemm)");
    /* algorithm NULL: tensor_core (gemm_call), never a guess that changes the arithmetic. */
    return run(__func__, ctx, algorithm, dtype, M, N, K, alpha, A, offA, lda, B, offB, ldb,
               beta, C, offC, ldc, queue, NULL, event);
}
