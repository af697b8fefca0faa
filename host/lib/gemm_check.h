/* Checking a clgemm_gemm_desc in the caller's terms (gemm_call.c's first step): every
 * field, each operand's stored shape against its buffer, C apart from A and B and from
 * itself across a batch. */
#ifndef CLGEMM_GEMM_CHECK_H
#define CLGEMM_GEMM_CHECK_H

#include <limits.h>

#include "clgemm.h"

#define MAX_INDEX ((unsigned long long)INT_MAX)

/* One operand in the caller's terms. */
typedef struct user_operand {
    char name;            /* 'A', 'B' or 'C' */
    cl_mem buf;
    size_t off, ld, stride;
    size_t rows, cols;    /* the matrix as stored (op T: op(X) transposed) */
    char rdim, cdim;      /* the names of those sizes */
    int op;               /* clgemm_op; C: -1 */
    size_t elem;          /* bytes per element */
    unsigned long long extent, end; /* elements of one matrix; past the last of the batch */
} user_operand;

/* CLGEMM_ERROR_INVALID_ARGUMENT with "fn: message". */
clgemm_status gemm_check_bad(const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Checks d (batch problems of A and B elements of elem_ab bytes) and describes its operands
 * in x (A, B, C). */
clgemm_status gemm_check(const char *fn, const clgemm_gemm_desc *d, size_t batch,
                         size_t elem_ab, user_operand x[3]);

#endif
