/* Plain types shared by the library's internals and the CLI: a problem size and an
 * operand inside a buffer. */
#ifndef CLGEMM_SHAPE_H
#define CLGEMM_SHAPE_H

#include <CL/cl.h>

typedef struct gemm_shape {
    int M, N, K;
} gemm_shape;

/* A row-major matrix inside a buffer: element (r, c) is buf[off + r * ld + c]. */
typedef struct gemm_operand {
    cl_mem buf;
    int off, ld;
} gemm_operand;

#endif
