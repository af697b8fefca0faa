/* Plain types shared by the library's internals and the CLI: a problem size and an
 * operand inside a buffer. */
#ifndef CLGEMM_SHAPE_H
#define CLGEMM_SHAPE_H

#include <stdbool.h>

#include <CL/cl.h>

typedef struct gemm_shape {
    int M, N, K;
} gemm_shape;

/* A row-major matrix inside a buffer: element (r, c) is buf[off + r * ld + c].  trans: it is
 * stored transposed, (r, c) at buf[off + c * ld + r]; only a plan whose pre-pass reads its
 * operands as stored (step 10's TF32 packing) is given such an operand. */
typedef struct gemm_operand {
    cl_mem buf;
    int off, ld;
    bool trans;
} gemm_operand;

#endif
