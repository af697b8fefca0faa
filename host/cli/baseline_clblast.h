/* The CLBlast baseline: same buffers, same queue, same timer as our kernels. */
#ifndef CLGEMM_BASELINE_CLBLAST_H
#define CLGEMM_BASELINE_CLBLAST_H

#include <stdbool.h>

#include "clerr.h"
#include "clgemm.h"

/* False when clgemm was built with -Dclblast=disabled or without libclblast-dev. */
bool baseline_clblast_available(void);

/* Enqueues the call `d` describes (fp32 A and B; its algorithm is ignored) through CLBlast:
 * CLBlastSgemm with the same layout, transposes, leading dimensions and offsets, or
 * CLBlastSgemmStridedBatched with the same strides when d->batch > 1.  *last is the event of
 * the last kernel CLBlast enqueued (it may enqueue several). */
int baseline_clblast_enqueue(cl_command_queue q, const clgemm_gemm_desc *d, cl_event *last,
                             errbuf *e);

/* Drops CLBlast's cache of compiled programs (they hold the context alive). */
void baseline_clblast_release(void);

#endif
