/* Host-side matrices as the device buffers hold them: row- or column-major, any leading
 * dimension, a batch of copies back to back after an offset, and reproducible random contents
 * with NaN in every element outside the matrices. */
#ifndef CLGEMM_MATRIX_H
#define CLGEMM_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct host_matrix {
    float *data;      /* element (0, 0) of the first copy: buf + off */
    float *buf;       /* the whole buffer image: off elements, then batch copies */
    size_t off;       /* elements before the first copy */
    int rows, cols;   /* of one stored copy (op T: the transpose of what the product uses) */
    int ld;           /* elements between rows (row-major) or columns (column-major) */
    bool col_major;
    bool trans;       /* the product uses the transpose of the stored matrix */
    int batch;        /* copies */
    size_t stride;    /* elements from one copy to the next */
} host_matrix;

/* Where a stored matrix lies: its lines (rows, or columns when column-major) of ld elements,
 * `len` of them used; one copy spans lines * ld elements. */
typedef struct matrix_geometry {
    int rows, cols;
    bool col_major;
    long long ld;     /* the stored line length plus ld_pad, or rounded up to ld_multiple */
    long long stride; /* one copy's padded extent: lines * ld */
} matrix_geometry;

/* ld_pad < 0: lines rounded up to a multiple of ld_multiple; else the line length + ld_pad. */
matrix_geometry matrix_geometry_of(int rows, int cols, bool col_major, int ld_pad,
                                   int ld_multiple);
/* Elements of a whole buffer: off + batch * stride (a double, so nothing overflows). */
double matrix_geometry_elements(const matrix_geometry *g, int batch, int off);

/* Storage for `batch` copies laid out as g says, `off` elements into the buffer.  Returns 0,
 * or -1 when out of memory (or the buffer beyond size_t). */
int host_matrix_make(host_matrix *m, const matrix_geometry *g, int batch, int off);
/* Row-major, one copy, no offset, ld = cols rounded up to a multiple of ld_multiple. */
int host_matrix_alloc(host_matrix *m, int rows, int cols, int ld_multiple);
void host_matrix_free(host_matrix *m);
/* Bytes of the copies, from data on (the offset not included). */
size_t host_matrix_bytes(const host_matrix *m);
/* Bytes of the whole buffer image, offset included. */
size_t host_matrix_buffer_bytes(const host_matrix *m);

/* Uniform values in [-1, 1) from a seeded generator, each copy of the batch its own; every
 * element outside the copies (the offset, the padding at the end of each line) gets NaN, so a
 * kernel that reads past the end of a line poisons its result and fails the check. */
void host_matrix_fill_random(host_matrix *m, uint64_t seed);
/* Every element of the buffer image set to NaN. */
void host_matrix_fill_nan(host_matrix *m);

/* Stored element (r, c) of copy b. */
static inline float host_matrix_at(const host_matrix *m, int b, int r, int c)
{
    size_t i = m->col_major ? (size_t)c * (size_t)m->ld + (size_t)r
                            : (size_t)r * (size_t)m->ld + (size_t)c;
    return m->data[(size_t)b * m->stride + i];
}
/* Element (i, j) of op(copy b): the stored matrix, or its transpose. */
static inline float host_matrix_op(const host_matrix *m, int b, int i, int j)
{
    return m->trans ? host_matrix_at(m, b, j, i) : host_matrix_at(m, b, i, j);
}
static inline int host_matrix_op_rows(const host_matrix *m) { return m->trans ? m->cols : m->rows; }
static inline int host_matrix_op_cols(const host_matrix *m) { return m->trans ? m->rows : m->cols; }

/* Whether buffer element `index` (counted from the buffer's start) lies inside a copy. */
bool host_matrix_inside(const host_matrix *m, size_t index);

/* Compares two images of the same buffer outside the copies, bit for bit: the number of
 * elements that differ, and the first one's buffer index in *first. */
size_t host_matrix_outside_changes(const host_matrix *expected, const host_matrix *got,
                                   size_t *first);

#endif
