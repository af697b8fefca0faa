/* The public API (clgemm.h) over the internals: device list, registry, plans, cache. */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "cache.h"
#include "clgemm.h"
#include "clgemm_config.h"
#include "backend.h"
#include "device.h"
#include "dtype.h"
#include "gemm.h"
#include "tuning.h"

/* One built variant of an algorithm: registry row + parameter overrides.  Nodes never move
 * once made (threads hold pointers to them), so they form a list, not an array. */
struct ctx_plan {
    struct ctx_plan *next;
    size_t algo;
    int dtype; /* clgemm_dtype of A and B */
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

static _Thread_local char last_error[1024];

static clgemm_status fail(clgemm_status st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static clgemm_status fail(clgemm_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return st;
}

static clgemm_status ok(void)
{
    last_error[0] = '\0';
    return CLGEMM_SUCCESS;
}

const char *clgemm_last_error(void) { return last_error; }
const char *clgemm_version(void) { return CLGEMM_VERSION; }

const char *clgemm_status_string(clgemm_status status)
{
    switch (status) {
    case CLGEMM_SUCCESS: return "success";
    case CLGEMM_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case CLGEMM_ERROR_NO_DEVICE: return "no matching OpenCL device";
    case CLGEMM_ERROR_UNKNOWN_ALGORITHM: return "unknown algorithm";
    case CLGEMM_ERROR_UNSUPPORTED: return "unsupported on this device or for these operands";
    case CLGEMM_ERROR_BUILD_FAILED: return "kernel build failed";
    case CLGEMM_ERROR_OPENCL: return "OpenCL call failed";
    case CLGEMM_ERROR_OUT_OF_HOST_MEMORY: return "out of host memory";
    }
    return "unknown status";
}

/* ---- devices: enumerated once per process ---------------------------------------- */

static pthread_once_t devices_once = PTHREAD_ONCE_INIT;
static device_list devices;
static errbuf devices_error;
static int devices_rc;

static void enumerate_once(void) { devices_rc = devices_enumerate(&devices, &devices_error); }

clgemm_status clgemm_devices(const clgemm_device_desc **list, size_t *count)
{
    if (!list || !count)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "clgemm_devices: NULL argument");
    pthread_once(&devices_once, enumerate_once);
    if (devices_rc != 0)
        return fail(CLGEMM_ERROR_NO_DEVICE, "%s", devices_error.msg);
    *list = devices.items;
    *count = devices.count;
    return ok();
}

clgemm_status clgemm_select_devices(const char *spec, size_t *indices, size_t *count)
{
    const clgemm_device_desc *list;
    size_t n;
    clgemm_status st = clgemm_devices(&list, &n);
    if (st != CLGEMM_SUCCESS)
        return st;
    if (!indices || !count)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "clgemm_select_devices: NULL argument");
    errbuf e = { "" };
    int picked = devices_select(&devices, spec, indices, &e);
    if (picked < 0)
        return fail(CLGEMM_ERROR_NO_DEVICE, "%s", e.msg);
    *count = (size_t)picked;
    return ok();
}

/* ---- algorithms ------------------------------------------------------------------- */

size_t clgemm_algorithm_count(void)
{
    size_t n;
    algos_all(&n);
    return n;
}

const clgemm_algorithm_desc *clgemm_algorithm(size_t index)
{
    size_t n;
    const algo_def *all = algos_all(&n);
    return index < n ? &all[index].desc : NULL;
}

const clgemm_algorithm_desc *clgemm_find_algorithm(const char *name)
{
    const algo_def *a = name ? algo_find(name) : NULL;
    return a ? &a->desc : NULL;
}

/* ---- contexts --------------------------------------------------------------------- */

static clgemm_status new_context(const device_info *dev, cl_context c, cl_command_queue q,
                                 clgemm_context **out)
{
    clgemm_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return fail(CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    ctx->dev = dev;
    ctx->ctx = c;
    ctx->queue = q;
    pthread_mutex_init(&ctx->build, NULL);
    *out = ctx;
    return ok();
}

clgemm_status clgemm_open_device(size_t index, clgemm_context **out)
{
    const clgemm_device_desc *list;
    size_t n;
    if (!out)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "clgemm_open_device: NULL context pointer");
    clgemm_status st = clgemm_devices(&list, &n);
    if (st != CLGEMM_SUCCESS)
        return st;
    if (index >= n)
        return fail(CLGEMM_ERROR_NO_DEVICE, "no device %zu: there are %zu", index, n);
    const device_info *dev = &list[index];
    cl_int err;
    cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform,
                                      0 };
    cl_context c = clCreateContext(props, 1, &dev->id, NULL, NULL, &err);
    if (!c)
        return fail(CLGEMM_ERROR_OPENCL, "clCreateContext(%s) failed: %s", dev->name,
                    cl_error_name(err));
    cl_command_queue q = clCreateCommandQueue(c, dev->id, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!q) {
        clReleaseContext(c);
        return fail(CLGEMM_ERROR_OPENCL, "clCreateCommandQueue(%s) failed: %s", dev->name,
                    cl_error_name(err));
    }
    st = new_context(dev, c, q, out);
    if (st != CLGEMM_SUCCESS) {
        clReleaseCommandQueue(q);
        clReleaseContext(c);
    }
    return st;
}

clgemm_status clgemm_open(const char *device_spec, clgemm_context **out)
{
    size_t n, count;
    const clgemm_device_desc *list;
    clgemm_status st = clgemm_devices(&list, &n);
    if (st != CLGEMM_SUCCESS)
        return st;
    size_t *picked = calloc(n, sizeof *picked);
    if (!picked)
        return fail(CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    st = clgemm_select_devices(device_spec, picked, &count);
    size_t first = picked[0];
    free(picked);
    if (st != CLGEMM_SUCCESS)
        return st;
    return clgemm_open_device(first, out);
}

clgemm_status clgemm_wrap(cl_command_queue queue, clgemm_context **out)
{
    if (!queue || !out)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "clgemm_wrap: NULL argument");
    cl_context c;
    cl_device_id id;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof c, &c, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof id, &id, NULL);
    if (err != CL_SUCCESS)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "clGetCommandQueueInfo failed: %s",
                    cl_error_name(err));
    const clgemm_device_desc *list;
    size_t n;
    clgemm_status st = clgemm_devices(&list, &n);
    if (st != CLGEMM_SUCCESS)
        return st;
    for (size_t i = 0; i < n; i++)
        if (list[i].id == id) {
            st = new_context(&list[i], c, queue, out);
            if (st == CLGEMM_SUCCESS) {
                clRetainContext(c);
                clRetainCommandQueue(queue);
            }
            return st;
        }
    return fail(CLGEMM_ERROR_NO_DEVICE, "the queue's device is not one of the enumerated "
                                        "devices (sub-devices are not supported)");
}

void clgemm_close(clgemm_context *ctx)
{
    if (!ctx)
        return;
    for (struct ctx_plan *p = ctx->plans, *next; p; p = next) {
        next = p->next;
        gemm_plan_release(&p->plan);
        free(p->log);
        pthread_mutex_destroy(&p->enqueue);
        free(p);
    }
    pthread_mutex_destroy(&ctx->build);
    clReleaseCommandQueue(ctx->queue);
    clReleaseContext(ctx->ctx);
    free(ctx);
}

cl_context clgemm_cl_context(const clgemm_context *ctx) { return ctx ? ctx->ctx : NULL; }
cl_command_queue clgemm_cl_queue(const clgemm_context *ctx) { return ctx ? ctx->queue : NULL; }
const clgemm_device_desc *clgemm_device(const clgemm_context *ctx)
{
    return ctx ? ctx->dev : NULL;
}

const char *clgemm_cache_dir(void) { return cache_dir(); }

/* ---- plans and GEMMs -------------------------------------------------------------- */

/* NULL only when out of host memory. */
static struct ctx_plan *plan_for(clgemm_context *ctx, size_t index, int dtype,
                                 const char *overrides)
{
    pthread_mutex_lock(&ctx->build);
    struct ctx_plan *p = ctx->plans;
    while (p && !(p->algo == index && p->dtype == dtype && strcmp(p->overrides, overrides) == 0))
        p = p->next;
    if (!p && (p = calloc(1, sizeof *p))) {
        size_t n;
        const algo_def *all = algos_all(&n);
        errbuf e = { "" };
        p->algo = index;
        p->dtype = dtype;
        snprintf(p->overrides, sizeof p->overrides, "%s", overrides);
        pthread_mutex_init(&p->enqueue, NULL);
        p->status = gemm_plan_create(&p->plan, ctx->ctx, ctx->dev, &all[index], dtype,
                                     *overrides ? overrides : NULL, &p->log, &e);
        snprintf(p->why, sizeof p->why, "%s", e.msg);
        p->next = ctx->plans;
        ctx->plans = p;
    }
    pthread_mutex_unlock(&ctx->build);
    return p;
}

static clgemm_status plan_status_to_api(const struct ctx_plan *p, const char *name)
{
    switch (p->status) {
    case PLAN_OK: return ok();
    case PLAN_UNSUPPORTED: return fail(CLGEMM_ERROR_UNSUPPORTED, "%s: %s", name, p->why);
    case PLAN_BUILD_FAILED: return fail(CLGEMM_ERROR_BUILD_FAILED, "%s: %s", name, p->why);
    case PLAN_ERROR: break;
    }
    return fail(CLGEMM_ERROR_OPENCL, "%s: %s", name, p->why);
}

/* "name" or "name:KEY=VALUE,KEY=VALUE" (tile parameters overriding the defaults). */
static clgemm_status parse_algorithm(const char *text, size_t *index, char *overrides,
                                     size_t size)
{
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    size_t n;
    const algo_def *all = algos_all(&n);
    for (size_t i = 0; i < n; i++)
        if (strlen(all[i].desc.name) == len && strncmp(all[i].desc.name, text, len) == 0) {
            *index = i;
            if (colon && strlen(colon + 1) >= size)
                return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "parameters too long in '%s'", text);
            snprintf(overrides, size, "%s", colon ? colon + 1 : "");
            return CLGEMM_SUCCESS;
        }
    return fail(CLGEMM_ERROR_UNKNOWN_ALGORITHM, "unknown algorithm '%.*s'", (int)len, text);
}

/* auto never changes the arithmetic: only fp32 algorithms are candidates. */
static bool is_fp32(const char *algorithm)
{
    const clgemm_algorithm_desc *d = clgemm_find_algorithm(algorithm);
    return d && strcmp(d->precision, "fp32") == 0;
}

/* The tuned variant of a plain algorithm name for this size ("name:params"), or the name
 * itself; with algorithm NULL, the fastest tuned algorithm near this size, else "". */
static void resolve(const clgemm_context *ctx, const char *algorithm, size_t M, size_t N,
                    size_t K, char *out, size_t size)
{
    if (algorithm && strchr(algorithm, ':')) {
        snprintf(out, size, "%s", algorithm);
        return;
    }
    const tuning_entry *t = tuning_lookup(tuning_get(), ctx->dev->name, ctx->dev->driver,
                                          algorithm, (long)M, (long)N, (long)K, is_fp32);
    if (t && clgemm_find_algorithm(t->algorithm))
        snprintf(out, size, "%s:%s", t->algorithm, t->params);
    else
        snprintf(out, size, "%s", algorithm ? algorithm : "");
}

clgemm_status clgemm_resolve(clgemm_context *ctx, const char *algorithm, size_t M, size_t N,
                             size_t K, char *out, size_t size)
{
    if (!ctx || !out || size == 0)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "clgemm_resolve: NULL argument");
    resolve(ctx, algorithm, M, N, K, out, size);
    if (!*out) {
        /* Untuned device: the last fp32 step of the progression (the matrix-unit steps
         * change the arithmetic, so they run only when asked for by name). */
        for (size_t i = clgemm_algorithm_count(); i-- > 0 && !*out;)
            if (strcmp(clgemm_algorithm(i)->precision, "fp32") == 0)
                snprintf(out, size, "%s", clgemm_algorithm(i)->name);
    }
    return ok();
}

clgemm_status clgemm_prepare(clgemm_context *ctx, const char *algorithm, clgemm_build_info *info)
{
    return clgemm_prepare_dtype(ctx, algorithm, CLGEMM_F32, info);
}

clgemm_status clgemm_prepare_dtype(clgemm_context *ctx, const char *algorithm,
                                   clgemm_dtype dtype, clgemm_build_info *info)
{
    if (info)
        memset(info, 0, sizeof *info);
    if (!ctx || !algorithm)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "clgemm_prepare: NULL argument");
    if (!clgemm_dtype_name(dtype))
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "clgemm_prepare: unknown dtype %d",
                    (int)dtype);
    size_t index;
    char overrides[192];
    clgemm_status st = parse_algorithm(algorithm, &index, overrides, sizeof overrides);
    if (st != CLGEMM_SUCCESS)
        return st;
    struct ctx_plan *p = plan_for(ctx, index, (int)dtype, overrides);
    if (!p)
        return fail(CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    if (info) {
        memset(info, 0, sizeof *info);
        params_to_text(&p->plan.params, info->params, sizeof info->params);
        info->build_ms = p->plan.build_ms;
        info->from_cache = p->plan.from_cache;
        info->log = p->log;
        info->backend = p->plan.backend ? p->plan.backend : "none";
        info->precision = p->plan.precision ? p->plan.precision
                                            : clgemm_algorithm(index)->precision;
    }
    return plan_status_to_api(p, algorithm);
}

/* The operand must fit 32-bit indexing and its buffer (of elements of `elem` bytes). */
static clgemm_status check_operand(const char *what, cl_mem buf, size_t off, size_t ld,
                                   size_t rows, size_t cols, size_t elem, gemm_operand *out)
{
    if (!buf)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "%s: NULL buffer", what);
    if (ld < cols)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "%s: leading dimension %zu < %zu columns",
                    what, ld, cols);
    if (rows > INT_MAX || ld > INT_MAX || off > INT_MAX || cols > (size_t)INT_MAX - off ||
        (rows - 1) > ((size_t)INT_MAX - off - cols) / ld)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT,
                    "%s: more than 2^31 elements, beyond 32-bit indexing", what);
    size_t need = (off + (rows - 1) * ld + cols) * elem, have = 0;
    cl_int err = clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof have, &have, NULL);
    if (err != CL_SUCCESS)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "%s: clGetMemObjectInfo failed: %s", what,
                    cl_error_name(err));
    if (have < need)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "%s: buffer has %zu bytes, needs %zu",
                    what, have, need);
    *out = (gemm_operand){ buf, (int)off, (int)ld };
    return CLGEMM_SUCCESS;
}

/* The checks clgemm_sgemm and clgemm_gemm_16bit share: sizes, then each operand's buffer,
 * offset and leading dimension (A and B of elem_ab bytes, C of floats). */
static clgemm_status validate_problem(size_t M, size_t N, size_t K, cl_mem A, size_t offA,
                                      size_t lda, cl_mem B, size_t offB, size_t ldb, cl_mem C,
                                      size_t offC, size_t ldc, size_t elem_ab, gemm_operand *a,
                                      gemm_operand *b, gemm_operand *c)
{
    if (M < 1 || N < 1 || K < 1 || M > INT_MAX || N > INT_MAX || K > INT_MAX)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "sizes must be 1..2^31-1, got %zux%zux%zu",
                    M, N, K);
    clgemm_status st;
    if ((st = check_operand("A", A, offA, lda, M, K, elem_ab, a)) != CLGEMM_SUCCESS ||
        (st = check_operand("B", B, offB, ldb, K, N, elem_ab, b)) != CLGEMM_SUCCESS ||
        (st = check_operand("C", C, offC, ldc, M, N, sizeof(float), c)) != CLGEMM_SUCCESS)
        return st;
    return CLGEMM_SUCCESS;
}

/* One enqueue of a ready plan, serialised per plan (kernel arguments are per cl_kernel). */
static clgemm_status enqueue_plan(clgemm_context *ctx, struct ctx_plan *p,
                                  cl_command_queue queue, size_t M, size_t N, size_t K,
                                  float alpha, gemm_operand a, gemm_operand b, float beta,
                                  gemm_operand c, cl_event *first, cl_event *event)
{
    errbuf e = { "" };
    gemm_shape s = { (int)M, (int)N, (int)K };
    pthread_mutex_lock(&p->enqueue);
    int rc = gemm_enqueue(&p->plan, queue ? queue : ctx->queue, s, alpha, a, b, beta, c, first,
                          event, &e);
    pthread_mutex_unlock(&p->enqueue);
    if (rc != 0)
        return fail(CLGEMM_ERROR_OPENCL, "%s", e.msg);
    return ok();
}

clgemm_status clgemm_sgemm(clgemm_context *ctx, const char *algorithm, size_t M, size_t N,
                           size_t K, float alpha, cl_mem A, size_t offA, size_t lda,
                           cl_mem B, size_t offB, size_t ldb, float beta, cl_mem C,
                           size_t offC, size_t ldc, cl_command_queue queue, cl_event *event)
{
    return clgemm_sgemm_events(ctx, algorithm, M, N, K, alpha, A, offA, lda, B, offB, ldb, beta,
                               C, offC, ldc, queue, NULL, event);
}

clgemm_status clgemm_sgemm_events(clgemm_context *ctx, const char *algorithm, size_t M,
                                  size_t N, size_t K, float alpha, cl_mem A, size_t offA,
                                  size_t lda, cl_mem B, size_t offB, size_t ldb, float beta,
                                  cl_mem C, size_t offC, size_t ldc, cl_command_queue queue,
                                  cl_event *first, cl_event *last)
{
    if (!ctx)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "clgemm_sgemm: NULL context");
    gemm_operand a, b, c;
    clgemm_status st = validate_problem(M, N, K, A, offA, lda, B, offB, ldb, C, offC, ldc,
                                        sizeof(float), &a, &b, &c);
    if (st != CLGEMM_SUCCESS)
        return st;

    struct ctx_plan *p = NULL;
    errbuf e = { "" };
    /* A tuned variant first (if the database has one for this device and size), then the
     * plain algorithm, then, with algorithm NULL, the progression from its last step down. */
    char tuned[256];
    resolve(ctx, algorithm, M, N, K, tuned, sizeof tuned);
    if (*tuned && (!algorithm || strcmp(tuned, algorithm) != 0)) {
        size_t index;
        char overrides[192];
        if (parse_algorithm(tuned, &index, overrides, sizeof overrides) == CLGEMM_SUCCESS) {
            struct ctx_plan *q = plan_for(ctx, index, CLGEMM_F32, overrides);
            if (q && q->status == PLAN_OK && gemm_plan_accepts(&q->plan, a, b, c, &e))
                p = q;
        }
    }
    if (!p && algorithm) {
        size_t index;
        char overrides[192];
        if ((st = parse_algorithm(algorithm, &index, overrides, sizeof overrides)) !=
            CLGEMM_SUCCESS)
            return st;
        if (!(p = plan_for(ctx, index, CLGEMM_F32, overrides)))
            return fail(CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
        if (p->status != PLAN_OK)
            return plan_status_to_api(p, algorithm);
        if (!gemm_plan_accepts(&p->plan, a, b, c, &e))
            return fail(CLGEMM_ERROR_UNSUPPORTED, "%s: %s", algorithm, e.msg);
    } else if (!p) {
        for (size_t i = clgemm_algorithm_count(); i-- > 0 && !p;) {
            if (strcmp(clgemm_algorithm(i)->precision, "fp32") != 0)
                continue; /* as in clgemm_resolve: no change of arithmetic unasked */
            struct ctx_plan *q = plan_for(ctx, i, CLGEMM_F32, "");
            if (q && q->status == PLAN_OK && gemm_plan_accepts(&q->plan, a, b, c, &e))
                p = q;
        }
        if (!p)
            return fail(CLGEMM_ERROR_UNSUPPORTED, "no algorithm runs on this device");
    }
    return enqueue_plan(ctx, p, queue, M, N, K, alpha, a, b, beta, c, first, last);
}

/* ---- 16-bit inputs ---------------------------------------------------------------- */

const char *clgemm_dtype_name(clgemm_dtype dtype)
{
    switch (dtype) {
    case CLGEMM_F32: return "f32";
    case CLGEMM_F16: return "f16";
    case CLGEMM_BF16: return "bf16";
    }
    return NULL;
}

cl_ushort clgemm_float_to_16bit(float x, clgemm_dtype dtype)
{
    return dtype == CLGEMM_F16 ? f32_to_f16_bits(x) : f32_to_bf16_bits(x);
}

float clgemm_16bit_to_float(cl_ushort bits, clgemm_dtype dtype)
{
    return dtype == CLGEMM_F16 ? f16_bits_to_f32(bits) : bf16_bits_to_f32(bits);
}

int clgemm_algorithm_has_dtype(const char *algorithm, clgemm_dtype dtype)
{
    size_t index;
    char overrides[192];
    if (!algorithm || !clgemm_dtype_name(dtype) ||
        parse_algorithm(algorithm, &index, overrides, sizeof overrides) != CLGEMM_SUCCESS)
        return 0;
    size_t n;
    const algo_def *all = algos_all(&n);
    return dtype == CLGEMM_F32 || backend_has_16bit(&all[index]);
}

clgemm_status clgemm_gemm_16bit(clgemm_context *ctx, const char *algorithm, clgemm_dtype dtype,
                                size_t M, size_t N, size_t K, float alpha, cl_mem A,
                                size_t offA, size_t lda, cl_mem B, size_t offB, size_t ldb,
                                float beta, cl_mem C, size_t offC, size_t ldc,
                                cl_command_queue queue, cl_event *event)
{
    if (!ctx)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT, "clgemm_gemm_16bit: NULL context");
    if (dtype != CLGEMM_F16 && dtype != CLGEMM_BF16)
        return fail(CLGEMM_ERROR_INVALID_ARGUMENT,
                    "clgemm_gemm_16bit: dtype must be CLGEMM_F16 or CLGEMM_BF16 (fp32 data: "
                    "clgemm_sgemm)");
    gemm_operand a, b, c;
    clgemm_status st = validate_problem(M, N, K, A, offA, lda, B, offB, ldb, C, offC, ldc,
                                        sizeof(cl_ushort), &a, &b, &c);
    if (st != CLGEMM_SUCCESS)
        return st;
    /* No tuning lookup and no fallback: one kernel takes 16-bit data, and a wrong guess
     * would change the arithmetic. */
    const char *name = algorithm ? algorithm : "tensor_core";
    size_t index;
    char overrides[192];
    if ((st = parse_algorithm(name, &index, overrides, sizeof overrides)) != CLGEMM_SUCCESS)
        return st;
    struct ctx_plan *p = plan_for(ctx, index, (int)dtype, overrides);
    if (!p)
        return fail(CLGEMM_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    if (p->status != PLAN_OK)
        return plan_status_to_api(p, name);
    errbuf e = { "" };
    if (!gemm_plan_accepts(&p->plan, a, b, c, &e))
        return fail(CLGEMM_ERROR_UNSUPPORTED, "%s: %s", name, e.msg);
    return enqueue_plan(ctx, p, queue, M, N, K, alpha, a, b, beta, c, NULL, event);
}
