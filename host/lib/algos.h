/* The registry: one table, a row per algorithm.  Adding an algorithm is one .cl file
 * under cl/ plus one row in algos.c; nothing else changes. */
#ifndef CLGEMM_ALGOS_H
#define CLGEMM_ALGOS_H

#include <stdbool.h>
#include <stddef.h>

#include "clgemm.h"

typedef struct algo_def {
    clgemm_algorithm_desc desc; /* name, summary, default tile parameters (BM BN = the C tile
                                   of a work-group, TM TN = of a work-item, BK and extras),
                                   alignment the vector loads need */
    const char *file;           /* under cl/ */
    const char *kernel;         /* __kernel function name */
    bool rows_on_dim0;          /* NDRange dimension 0 walks rows of C (only naive does) */
    bool matrix_units;          /* needs matrix hardware (or CLGEMM_EMULATE_MATRIX=1), see
                                   backend.c; `file` is then the NVIDIA mma.sync kernel */
} algo_def;

const algo_def *algos_all(size_t *count);
const algo_def *algo_find(const char *name);

#endif
