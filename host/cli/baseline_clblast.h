/* The CLBlast baseline: same buffers, same queue, same timer as our kernels. */
#ifndef CLGEMM_BASELINE_CLBLAST_H
#define CLGEMM_BASELINE_CLBLAST_H

#include <stdbool.h>

#include "clerr.h"
#include "shape.h"

/* False when clgemm was built with -Dclblast=disabled or without libclblast-dev. */
bool baseline_clblast_available(void);

/* Enqueues C = alpha*A*B + beta*C through CLBlastSgemm (row-major, no transposes).  *last
 * is the event of the last kernel CLBlast enqueued (it may enqueue several). */
int baseline_clblast_enqueue(cl_command_queue q, gemm_shape s, float alpha, gemm_operand A,
                             gemm_operand B, float beta, gemm_operand C, cl_event *last,
                             errbuf *e);

/* Drops CLBlast's cache of compiled programs (they hold the context alive). */
void baseline_clblast_release(void);

#endif
