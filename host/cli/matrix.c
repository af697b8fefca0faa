#include "matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int round_up(int v, int m) { return (v + m - 1) / m * m; }

size_t padded_bytes(int rows, int cols, int ld_multiple)
{
    return (size_t)rows * (size_t)round_up(cols, ld_multiple) * sizeof(float);
}

int host_matrix_alloc(host_matrix *m, int rows, int cols, int ld_multiple)
{
    m->rows = rows;
    m->cols = cols;
    m->ld = round_up(cols, ld_multiple);
    m->data = malloc(host_matrix_bytes(m));
    return m->data ? 0 : -1;
}

void host_matrix_free(host_matrix *m)
{
    free(m->data);
    m->data = NULL;
}

size_t host_matrix_bytes(const host_matrix *m)
{
    return (size_t)m->rows * (size_t)m->ld * sizeof(float);
}

/* splitmix64: tiny, fast, and the same sequence on every platform. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void host_matrix_fill_random(host_matrix *m, uint64_t seed)
{
    uint64_t s = seed;
    for (int r = 0; r < m->rows; r++) {
        float *row = m->data + (size_t)r * (size_t)m->ld;
        for (int c = 0; c < m->cols; c++)
            row[c] = (float)((double)(next(&s) >> 11) * 0x1.0p-52 - 1.0);
        for (int c = m->cols; c < m->ld; c++)
            row[c] = NAN;
    }
}
