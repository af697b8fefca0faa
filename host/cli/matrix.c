#include "matrix.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

matrix_geometry matrix_geometry_of(int rows, int cols, bool col_major, int ld_pad,
                                   int ld_multiple)
{
    long long len = col_major ? rows : cols, lines = col_major ? cols : rows;
    long long m = ld_multiple > 0 ? ld_multiple : 1;
    long long ld = ld_pad >= 0 ? len + ld_pad : (len + m - 1) / m * m;
    return (matrix_geometry){ rows, cols, col_major, ld, lines * ld };
}

double matrix_geometry_elements(const matrix_geometry *g, int batch, int off)
{
    return (double)off + (double)batch * (double)g->stride;
}

int host_matrix_make(host_matrix *m, const matrix_geometry *g, int batch, int off)
{
    memset(m, 0, sizeof *m);
    double total = matrix_geometry_elements(g, batch, off);
    if (g->ld > INT_MAX || batch < 1 || off < 0 || total * sizeof(float) > (double)SIZE_MAX / 2)
        return -1;
    m->rows = g->rows;
    m->cols = g->cols;
    m->col_major = g->col_major;
    m->ld = (int)g->ld;
    m->batch = batch;
    m->stride = (size_t)g->stride;
    m->off = (size_t)off;
    m->buf = malloc(host_matrix_buffer_bytes(m));
    m->data = m->buf ? m->buf + m->off : NULL;
    return m->buf ? 0 : -1;
}

int host_matrix_alloc(host_matrix *m, int rows, int cols, int ld_multiple)
{
    matrix_geometry g = matrix_geometry_of(rows, cols, false, -1, ld_multiple);
    return host_matrix_make(m, &g, 1, 0);
}

void host_matrix_free(host_matrix *m)
{
    free(m->buf);
    m->buf = m->data = NULL;
}

size_t host_matrix_bytes(const host_matrix *m)
{
    return (size_t)m->batch * m->stride * sizeof(float);
}

size_t host_matrix_buffer_bytes(const host_matrix *m)
{
    return m->off * sizeof(float) + host_matrix_bytes(m);
}

/* splitmix64: tiny, fast, and the same sequence on every platform. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void host_matrix_fill_nan(host_matrix *m)
{
    size_t n = host_matrix_buffer_bytes(m) / sizeof(float);
    for (size_t i = 0; i < n; i++)
        m->buf[i] = NAN;
}

void host_matrix_fill_random(host_matrix *m, uint64_t seed)
{
    uint64_t s = seed;
    host_matrix_fill_nan(m);
    /* Stored rows in order, whatever the layout, so a row-major single copy draws the
     * sequence it always drew. */
    for (int b = 0; b < m->batch; b++)
        for (int r = 0; r < m->rows; r++)
            for (int c = 0; c < m->cols; c++) {
                size_t i = m->col_major ? (size_t)c * (size_t)m->ld + (size_t)r
                                        : (size_t)r * (size_t)m->ld + (size_t)c;
                m->data[(size_t)b * m->stride + i] =
                    (float)((double)(next(&s) >> 11) * 0x1.0p-52 - 1.0);
            }
}

bool host_matrix_inside(const host_matrix *m, size_t index)
{
    if (index < m->off || m->stride == 0)
        return false;
    size_t i = index - m->off;
    if (i / m->stride >= (size_t)m->batch)
        return false;
    size_t within = (i % m->stride) % (size_t)m->ld; /* position along its line */
    return within < (size_t)(m->col_major ? m->rows : m->cols);
}

size_t host_matrix_outside_changes(const host_matrix *expected, const host_matrix *got,
                                   size_t *first)
{
    size_t n = host_matrix_buffer_bytes(expected) / sizeof(float), count = 0;
    for (size_t i = 0; i < n; i++)
        if (!host_matrix_inside(expected, i) &&
            memcmp(&expected->buf[i], &got->buf[i], sizeof(float)) != 0) {
            if (!count++)
                *first = i;
        }
    return count;
}
