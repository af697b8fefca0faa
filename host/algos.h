/* The registry: one table, a row per algorithm.  Adding an algorithm is one .cl file
 * under cl/ plus one row in algos.c; nothing else changes. */
#ifndef CLGEMM_ALGOS_H
#define CLGEMM_ALGOS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum algo_kind {
    ALGO_KERNEL,  /* one of our .cl files */
    ALGO_CLBLAST, /* the CLBlast baseline, timed the same way on the same buffers */
} algo_kind;

typedef struct algo_def {
    const char *name;
    algo_kind kind;
    const char *summary;  /* one line for --algo list */
    const char *file;     /* under cl/ */
    const char *kernel;   /* __kernel function name */
    const char *defaults; /* tile parameters: BM BN (C tile per work-group), TM TN (per
                             work-item), BK and kernel-specific extras */
    bool rows_on_dim0;    /* NDRange dimension 0 walks rows of C (only naive does) */
    int ld_multiple;      /* leading dimensions and offsets must be multiples of this */
} algo_def;

const algo_def *algos_all(size_t *count);
const algo_def *algo_find(const char *name);

#endif
