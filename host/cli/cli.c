#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "runner.h"

/* A whole-string decimal integer in [lo, hi]. */
static int parse_int(const char *text, long lo, long hi, long *out)
{
    if (!text || !*text || isspace((unsigned char)*text))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int parse_size(const char *text, gemm_shape *out, errbuf *e)
{
    long dims[3];
    int n = 0;
    const char *p = text;
    char part[32];
    for (;;) {
        const char *x = strchr(p, 'x');
        size_t len = x ? (size_t)(x - p) : strlen(p);
        if (n == 3 || len == 0 || len >= sizeof part)
            goto bad;
        memcpy(part, p, len);
        part[len] = '\0';
        if (parse_int(part, 1, INT_MAX, &dims[n]) != 0)
            goto bad;
        n++;
        if (!x)
            break;
        p = x + 1;
    }
    if (n == 1)
        dims[1] = dims[2] = dims[0];
    else if (n != 3)
        goto bad;
    *out = (gemm_shape){ (int)dims[0], (int)dims[1], (int)dims[2] };
    return 0;
bad:
    err_set(e, "bad --size '%s': expected N or MxNxK with positive integers (e.g. 1024 or "
               "1000x17x513)",
            text);
    return -1;
}

static int parse_float(const char *text, float *out)
{
    if (!text || !*text)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || *end || !isfinite(v) || fabs(v) > 3.4e38)
        return -1;
    *out = (float)v;
    return 0;
}

int parse_dtype(const char *text, clgemm_dtype *out, bool *tf32x3, errbuf *e)
{
    static const struct {
        const char *name;
        clgemm_dtype dtype;
        bool tf32x3;
    } known[] = { { "f32", CLGEMM_F32, false },  { "fp32", CLGEMM_F32, false },
                  { "f16", CLGEMM_F16, false },  { "bf16", CLGEMM_BF16, false },
                  { "tf32x3", CLGEMM_F32, true } };
    for (size_t i = 0; text && i < sizeof known / sizeof known[0]; i++)
        if (strcmp(text, known[i].name) == 0) {
            *out = known[i].dtype;
            *tf32x3 = known[i].tf32x3;
            return 0;
        }
    err_set(e, "bad --dtype '%s': expected f32, f16, bf16 or tf32x3", text ? text : "");
    return -1;
}

void cli_print_help(const char *prog)
{
    printf("usage: %s [options]\n"
           "Runs OpenCL GEMM kernels (C = alpha*A*B + beta*C, fp32, row-major), verifies each\n"
           "result and times it against CLBlast on the same device in the same run.\n"
           "\n"
           "  --algo NAME        an algorithm, 'all' (default), 'auto' (the fastest tuned one\n"
           "                     for this device and size) or 'list' to describe them;\n"
           "                     repeat it for several; NAME:BM=64,BN=64 overrides its tile\n"
           "                     parameters\n"
           "  --size N|MxNxK     problem size (default: 2048 on GPUs, 256 elsewhere)\n"
           "  --device SPEC      P:D index, N-th device, a name substring (case-insensitive,\n"
           "                     e.g. nvidia, pocl) or 'all' to compare every device\n"
           "                     (default: the first GPU, else the first device)\n"
           "  --list-devices     list platforms and devices, then exit\n"
           "  --iters N          timed runs per algorithm (default: enough for 0.5 s, 3..200)\n"
           "  --warmup N         untimed runs before timing (default 2)\n"
           "  --format F         table (default), csv or json on stdout\n"
           "  --no-check         skip verification (rows say 'unchecked')\n"
           "  --no-baseline      do not add the CLBlast row beside the chosen algorithm\n"
           "  --seed N           seed of the random inputs (default 42)\n"
           "  --alpha X, --beta X   scalars of the product (default 1 and 0)\n"
           "  --dtype T          f32 (default), f16 or bf16: A and B are rounded to T on the\n"
           "                     host (to nearest even) and the reference is computed from the\n"
           "                     rounded values; tensor_core then runs on 16-bit buffers\n"
           "                     (mma.sync m16n8k16, fp32 accumulation), every other algorithm\n"
           "                     on the rounded values as fp32.  tf32x3: fp32 data, and runs\n"
           "                     tensor_core_tf32x3 (as --algo tensor_core_tf32x3)\n"
           "  --quiet            no progress lines on stderr\n"
           "  --help, --version\n"
           "\n"
           "Verification: small problems against a full double-precision reference; large ones\n"
           "against exact sampled entries plus CLBlast's full result.  Error = max |c - ref| /\n"
           "sum_k |a*b|; fp32 passes below 2^-24 * max(4, 2*sqrt(K)), tf32 and f16 arithmetic\n"
           "on fp32 inputs below 2^-10, bf16 below 2^-7; on inputs already rounded to f16/bf16\n"
           "(--dtype) matrix units pass below 2^-20 + twice fp32's (see README).\n"
           "Environment: CLGEMM_KERNEL_DIR=path/to/cl reads kernels from there instead of the\n"
           "copies built into the binary; CLGEMM_BUILD_OPTIONS adds compiler options (e.g.\n"
           "-cl-nv-verbose) and CLGEMM_SHOW_BUILD_LOG=1 prints every build log on stderr.\n"
           "Exit status: 0 all verified, 1 a wrong result or an OpenCL failure, 2 bad input.\n",
           prog);
}

/* Accepts "--flag value" and "--flag=value". */
static const char *take_value(int argc, char **argv, int *i, const char *flag, errbuf *e)
{
    const char *arg = argv[*i];
    size_t n = strlen(flag);
    if (arg[n] == '=')
        return arg + n + 1;
    if (*i + 1 >= argc) {
        err_set(e, "%s needs a value (see --help)", flag);
        return NULL;
    }
    return argv[++*i];
}

static bool is_flag(const char *arg, const char *flag)
{
    size_t n = strlen(flag);
    return strncmp(arg, flag, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

int cli_parse(int argc, char **argv, cli_options *o, errbuf *e)
{
    *o = (cli_options){ .check = true, .baseline = true, .iters = 0, .warmup = 2,
                        .format = FORMAT_TABLE, .seed = 42, .alpha = 1.0f, .beta = 0.0f,
                        .dtype = CLGEMM_F32 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v;
        long n;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = true;
        } else if (strcmp(a, "--version") == 0) {
            o->version = true;
        } else if (strcmp(a, "--list-devices") == 0) {
            o->list_devices = true;
        } else if (strcmp(a, "--no-check") == 0) {
            o->check = false;
        } else if (strcmp(a, "--no-baseline") == 0) {
            o->baseline = false;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            o->quiet = true;
        } else if (is_flag(a, "--algo")) {
            if (!(v = take_value(argc, argv, &i, "--algo", e)))
                return -1;
            /* A registry name may carry tile parameters: "warp_tiled:BM=64,BN=64". */
            size_t len = strcspn(v, ":");
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), v);
            bool special = !v[len] && (strcmp(v, "all") == 0 || strcmp(v, "list") == 0 ||
                                       strcmp(v, BASELINE_NAME) == 0 ||
                                       strcmp(v, AUTO_NAME) == 0);
            if (!special && (len >= sizeof name || !clgemm_find_algorithm(name))) {
                err_set(e, "unknown algorithm '%s' (see --algo list)", v);
                return -1;
            }
            if (o->nalgos == CLI_MAX_ALGOS) {
                err_set(e, "at most %d --algo options", CLI_MAX_ALGOS);
                return -1;
            }
            o->algos[o->nalgos++] = v;
        } else if (is_flag(a, "--size")) {
            if (!(v = take_value(argc, argv, &i, "--size", e)) || parse_size(v, &o->shape, e))
                return -1;
            o->size_given = true;
        } else if (is_flag(a, "--device")) {
            if (!(v = take_value(argc, argv, &i, "--device", e)))
                return -1;
            if (!*v) {
                err_set(e, "--device needs a non-empty spec (see --list-devices)");
                return -1;
            }
            o->device = v;
        } else if (is_flag(a, "--iters")) {
            if (!(v = take_value(argc, argv, &i, "--iters", e)))
                return -1;
            if (parse_int(v, 1, 100000, &n) != 0) {
                err_set(e, "bad --iters '%s': expected an integer from 1 to 100000", v);
                return -1;
            }
            o->iters = (int)n;
        } else if (is_flag(a, "--warmup")) {
            if (!(v = take_value(argc, argv, &i, "--warmup", e)))
                return -1;
            if (parse_int(v, 0, 10000, &n) != 0) {
                err_set(e, "bad --warmup '%s': expected an integer from 0 to 10000", v);
                return -1;
            }
            o->warmup = (int)n;
        } else if (is_flag(a, "--format")) {
            if (!(v = take_value(argc, argv, &i, "--format", e)))
                return -1;
            if (strcmp(v, "table") == 0)
                o->format = FORMAT_TABLE;
            else if (strcmp(v, "csv") == 0)
                o->format = FORMAT_CSV;
            else if (strcmp(v, "json") == 0)
                o->format = FORMAT_JSON;
            else {
                err_set(e, "bad --format '%s': expected table, csv or json", v);
                return -1;
            }
        } else if (is_flag(a, "--seed")) {
            if (!(v = take_value(argc, argv, &i, "--seed", e)))
                return -1;
            if (parse_int(v, 0, LONG_MAX, &n) != 0) {
                err_set(e, "bad --seed '%s': expected a non-negative integer", v);
                return -1;
            }
            o->seed = (uint64_t)n;
        } else if (is_flag(a, "--dtype")) {
            bool tf32x3 = false;
            if (!(v = take_value(argc, argv, &i, "--dtype", e)) ||
                parse_dtype(v, &o->dtype, &tf32x3, e) != 0)
                return -1;
            if (tf32x3) {
                if (o->nalgos == CLI_MAX_ALGOS) {
                    err_set(e, "at most %d --algo options", CLI_MAX_ALGOS);
                    return -1;
                }
                o->algos[o->nalgos++] = "tensor_core_tf32x3";
            }
        } else if (is_flag(a, "--alpha") || is_flag(a, "--beta")) {
            const char *flag = is_flag(a, "--alpha") ? "--alpha" : "--beta";
            if (!(v = take_value(argc, argv, &i, flag, e)))
                return -1;
            if (parse_float(v, flag[2] == 'a' ? &o->alpha : &o->beta) != 0) {
                err_set(e, "bad %s '%s': expected a finite number", flag, v);
                return -1;
            }
        } else {
            err_set(e, "unknown option '%s' (see --help)", a);
            return -1;
        }
    }
    return 0;
}
