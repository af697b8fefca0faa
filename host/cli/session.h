/* What a session holds, for the files that run its rows (runner.c, workspace.c, timing.c,
 * verify.c); runner.h keeps it opaque to everyone else. */
#ifndef CLGEMM_SESSION_H
#define CLGEMM_SESSION_H

#include "clgemm.h"

struct session {
    const clgemm_device_desc *dev;
    clgemm_context *ctx;
    cl_context cl;
    cl_command_queue queue;
};

#endif
