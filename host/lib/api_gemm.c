/* The public API (clgemm.h), second half: algorithms by name, plans, and the GEMM calls.
 * clgemm_sgemm, clgemm_gemm_16bit and clgemm_resolve share one choice (choose()), so that
 * resolve names exactly what the GEMM would run for the same operands. */
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
static struct ctx_plan *plan_for(clgemm_context *ctx, const algo_def *algo, clgemm_dtype dtype,
                                 const char *overrides)
{
    pthread_mutex_lock(&ctx->build);
    struct ctx_plan *p = ctx->plans;
    while (p && !(p->algo == algo && p->dtype == dtype && strcmp(p->overrides, overrides) == 0))
        p = p->next;
    if (!p && (p = calloc(1, sizeof *p))) {
        errbuf e = { "" };
        p->algo = algo;
        p->dtype = dtype;
        snprintf(p->overrides, sizeof p->overrides, "%s", overrides);
        pthread_mutex_init(&p->enqueue, NULL);
        p->status = gemm_plan_create(&p->plan, ctx->ctx, ctx->dev, algo, dtype, overrides,
                                     &p->log, &e);
        snprintf(p->why, sizeof p->why, "%s", e.msg);
        p->next = ctx->plans;
        ctx->plans = p;
    }
    pthread_mutex_unlock(&ctx->build);
    return p;
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
 * size if it accepts the operands, then the name itself; with no name (fp32 only), the
 * progression from its last fp32 step down, the first that runs on these operands. */
static clgemm_status choose(const char *fn, clgemm_context *ctx, const char *algorithm,
                            clgemm_dtype dtype, size_t M, size_t N, size_t K, gemm_operand a,
                            gemm_operand b, gemm_operand c, struct ctx_plan **out)
{
    errbuf e = { "" };
    const algo_def *algo;
    char overrides[OVERRIDES_MAX];
    clgemm_status st;
    /* The tuning database holds fp32 SIMT measurements: 16-bit data never consults it. */
    const tuning_entry *t =
        dtype == CLGEMM_F32 && !(algorithm && strchr(algorithm, ':'))
            ? tuning_lookup(tuning_get(), ctx->dev->name, ctx->dev->driver, algorithm,
                            (long)M, (long)N, (long)K, is_fp32)
            : NULL;
    if (t && (algo = algo_find(t->algorithm)) && gemm_params_check(algo, t->params, &e) == 0) {
        struct ctx_plan *q = plan_for(ctx, algo, dtype, t->params);
        if (q && q->status == PLAN_OK && gemm_plan_accepts(&q->plan, a, b, c, &e)) {
            *out = q;
            return CLGEMM_SUCCESS;
        }
    }
    if (algorithm) {
        if ((st = parse_algorithm(fn, algorithm, &algo, overrides)) != CLGEMM_SUCCESS)
            return st;
        struct ctx_plan *p = plan_for(ctx, algo, dtype, overrides);
        if (!p)
            return api_fail(fn, CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
        if (p->status != PLAN_OK)
            return plan_status_to_api(fn, p, algorithm);
        if (!gemm_plan_accepts(&p->plan, a, b, c, &e))
            return api_fail(fn, CLGEMM_ERROR_UNSUPPORTED, "%s: %s", algorithm, e.msg);
        *out = p;
        return CLGEMM_SUCCESS;
    }
    size_t n;
    const algo_def *all = algos_all(&n);
    for (size_t i = n; i-- > 0;) {
        if (all[i].desc.step == 0 || strcmp(all[i].desc.precision, "fp32") != 0)
            continue; /* no change of arithmetic unasked */
        struct ctx_plan *q = plan_for(ctx, &all[i], dtype, "");
        if (q && q->status == PLAN_OK && gemm_plan_accepts(&q->plan, a, b, c, &e)) {
            *out = q;
            return CLGEMM_SUCCESS;
        }
    }
    return api_fail(fn, CLGEMM_ERROR_UNSUPPORTED, "no fp32 algorithm runs on this device");
}

static void fill_info(clgemm_build_info *info, const gemm_plan *g, const algo_def *algo)
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
        fill_info(info, &g, algo);
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
    struct ctx_plan *p = plan_for(ctx, algo, dtype, overrides);
    if (!p)
        return api_fail(fn, CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    if (info) {
        fill_info(info, &p->plan, algo);
        info->log = p->log;
    }
    return plan_status_to_api(fn, p, algorithm);
}

/* The operand must fit 32-bit indexing and its buffer (of elements of `elem` bytes). */
static clgemm_status check_operand(const char *fn, const char *what, cl_mem buf, size_t off,
                                   size_t ld, size_t rows, size_t cols, size_t elem,
                                   gemm_operand *out)
{
    if (!buf)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "%s: NULL buffer", what);
    if (ld < cols)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT,
                        "%s: leading dimension %zu < %zu columns", what, ld, cols);
    if (rows > INT_MAX || ld > INT_MAX || off > INT_MAX || cols > (size_t)INT_MAX - off ||
        (rows - 1) > ((size_t)INT_MAX - off - cols) / ld)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT,
                        "%s: more than 2^31 elements, beyond 32-bit indexing", what);
    size_t need = (off + (rows - 1) * ld + cols) * elem, have = 0;
    cl_int err = clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof have, &have, NULL);
    if (err != CL_SUCCESS)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "%s: clGetMemObjectInfo failed: %s",
                        what, cl_error_name(err));
    if (have < need)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "%s: buffer has %zu bytes, needs %zu",
                        what, have, need);
    *out = (gemm_operand){ buf, (int)off, (int)ld };
    return CLGEMM_SUCCESS;
}

/* The bytes an operand spans, in terms of its root buffer (a sub-buffer's parent). */
typedef struct span {
    cl_mem root;
    size_t first, end;
} span;

static span span_of(cl_mem buf, size_t off, size_t ld, size_t rows, size_t cols, size_t elem)
{
    span s = { buf, off * elem, (off + (rows - 1) * ld + cols) * elem };
    cl_mem parent = NULL;
    size_t origin = 0;
    if (clGetMemObjectInfo(buf, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) ==
            CL_SUCCESS &&
        parent &&
        clGetMemObjectInfo(buf, CL_MEM_OFFSET, sizeof origin, &origin, NULL) == CL_SUCCESS) {
        s.root = parent;
        s.first += origin;
        s.end += origin;
    }
    return s;
}

/* C is written while A and B are read: a C that shares bytes with either gives garbage
 * (rows read after other groups wrote them), so it is refused. */
static bool spans_overlap(span x, span y)
{
    return x.root == y.root && x.first < y.end && y.first < x.end;
}

/* The checks every GEMM call makes: sizes, each operand's buffer, offset and leading
 * dimension (A and B of elem_ab bytes, C of floats), and C apart from A and B. */
static clgemm_status validate_problem(const char *fn, size_t M, size_t N, size_t K, cl_mem A,
                                      size_t offA, size_t lda, cl_mem B, size_t offB,
                                      size_t ldb, cl_mem C, size_t offC, size_t ldc,
                                      size_t elem_ab, gemm_operand *a, gemm_operand *b,
                                      gemm_operand *c)
{
    if (M < 1 || N < 1 || K < 1 || M > INT_MAX || N > INT_MAX || K > INT_MAX)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT,
                        "sizes must be 1..2^31-1, got %zux%zux%zu", M, N, K);
    clgemm_status st;
    if ((st = check_operand(fn, "A", A, offA, lda, M, K, elem_ab, a)) != CLGEMM_SUCCESS ||
        (st = check_operand(fn, "B", B, offB, ldb, K, N, elem_ab, b)) != CLGEMM_SUCCESS ||
        (st = check_operand(fn, "C", C, offC, ldc, M, N, sizeof(float), c)) != CLGEMM_SUCCESS)
        return st;
    const span sc = span_of(C, offC, ldc, M, N, sizeof(float));
    if (spans_overlap(sc, span_of(A, offA, lda, M, K, elem_ab)))
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "C overlaps A in the same buffer");
    if (spans_overlap(sc, span_of(B, offB, ldb, K, N, elem_ab)))
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "C overlaps B in the same buffer");
    return CLGEMM_SUCCESS;
}

/* What clgemm_resolve writes: a name that runs the same kernel with the same parameters. */
static clgemm_status describe(const char *fn, const struct ctx_plan *p, char *out, size_t size)
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
                             clgemm_dtype dtype, size_t M, size_t N, size_t K,
                                      size_t offA, size_t lda, size_t offB, size_t ldb,
                                      size_t offC, size_t ldc, char *out, size_t size)
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
    /* Only the alignment of offsets and leading dimensions matters to the choice. */
    const gemm_operand a = { NULL, (int)offA, (int)lda }, b = { NULL, (int)offB, (int)ldb },
                       c = { NULL, (int)offC, (int)ldc };
    struct ctx_plan *p = NULL;
    clgemm_status st = choose(fn, ctx, algorithm, dtype, M, N, K, a, b, c, &p);
    if (st != CLGEMM_SUCCESS)
        return st;
    return describe(fn, p, out, size);
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

static clgemm_status run(const char *fn, clgemm_context *ctx, const char *algorithm,
                         clgemm_dtype dtype, size_t M, size_t N, size_t K, float alpha,
                         cl_mem A, size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
                         float beta, cl_mem C, size_t offC, size_t ldc, cl_command_queue queue,
                         cl_event *first, cl_event *last)
{
    if (!ctx)
        return api_fail(fn, CLGEMM_ERROR_INVALID_ARGUMENT, "NULL context");
    gemm_operand a, b, c;
    const size_t elem = dtype == CLGEMM_F32 ? sizeof(float) : sizeof(cl_ushort);
    clgemm_status st = validate_problem(fn, M, N, K, A, offA, lda, B, offB, ldb, C, offC, ldc,
                                        elem, &a, &b, &c);
    if (st != CLGEMM_SUCCESS)
        return st;
    struct ctx_plan *p = NULL;
    if ((st = choose(fn, ctx, algorithm, dtype, M, N, K, a, b, c, &p)) != CLGEMM_SUCCESS)
        return st;
    errbuf e = { "" };
    gemm_shape s = { (int)M, (int)N, (int)K };
    pthread_mutex_lock(&p->enqueue);
    int rc = gemm_enqueue(&p->plan, queue ? queue : ctx->queue, s, alpha, a, b, beta, c, first,
                          last, &e);
    pthread_mutex_unlock(&p->enqueue);
    if (rc != 0)
        return api_fail(fn, CLGEMM_ERROR_OPENCL, "%s", e.msg);
    return api_ok();
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
    /* No fallback: a wrong guess would change the arithmetic. */
    return run(__func__, ctx, algorithm ? algorithm : "tensor_core", dtype, M, N, K, alpha, A,
               offA, lda, B, offB, ldb, beta, C, offC, ldc, queue, NULL, event);
}
