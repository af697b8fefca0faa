/* Host-side matrices: padded row-major storage and reproducible random contents. */
#ifndef CLGEMM_MATRIX_H
#define CLGEMM_MATRIX_H

#include <stddef.h>
#include <stdint.h>

typedef struct host_matrix {
    float *data;
    int rows, cols, ld;
} host_matrix;

/* ld = cols rounded up to a multiple of ld_multiple.  Returns 0, or -1 when out of memory. */
int host_matrix_alloc(host_matrix *m, int rows, int cols, int ld_multiple);
void host_matrix_free(host_matrix *m);
size_t host_matrix_bytes(const host_matrix *m);
/* Rows padded to ld_multiple, as the device buffers are: the bytes one buffer needs. */
size_t padded_bytes(int rows, int cols, int ld_multiple);

/* Uniform values in [-1, 1) from a seeded generator; the padding between cols and ld gets
 * NaN, so a kernel that reads past the end of a row poisons its result and fails the check. */
void host_matrix_fill_random(host_matrix *m, uint64_t seed);

#endif
