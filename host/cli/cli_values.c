/* The values of the command line's options, each read whole or refused: integers, sizes,
 * floats, element types, layouts and transposes (cli.h).  cli.c takes the options apart. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole-string decimal integer in [lo, hi]. */
int parse_int(const char *text, long lo, long hi, long *out)
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

int parse_float(const char *text, float *out)
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

int parse_layout(const char *text, clgemm_layout *out, errbuf *e)
{
    if (text && (strcmp(text, "row") == 0 || strcmp(text, "col") == 0)) {
        *out = text[0] == 'c' ? CLGEMM_COL_MAJOR : CLGEMM_ROW_MAJOR;
        return 0;
    }
    err_set(e, "bad --layout '%s': expected row or col", text ? text : "");
    return -1;
}

int parse_trans(const char *text, clgemm_op *op_a, clgemm_op *op_b, errbuf *e)
{
    if (text && strlen(text) == 2 && strchr("NT", text[0]) && strchr("NT", text[1])) {
        *op_a = text[0] == 'T' ? CLGEMM_OP_T : CLGEMM_OP_N;
        *op_b = text[1] == 'T' ? CLGEMM_OP_T : CLGEMM_OP_N;
        return 0;
    }
    err_set(e, "bad --trans '%s': expected NN, NT, TN or TT (op of A, then of B)",
            text ? text : "");
    return -1;
}
