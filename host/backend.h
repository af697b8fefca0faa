/* Which kernel file a device gets for an algorithm.  Plain algorithms have one; the
 * tensor_core step has one per vendor's matrix hardware, and an emulation for the rest. */
#ifndef CLGEMM_BACKEND_H
#define CLGEMM_BACKEND_H

#include "algos.h"
#include "clerr.h"
#include "device.h"

typedef struct backend_choice {
    const char *file;      /* under cl/ */
    const char *name;      /* "opencl", "nvidia mma.sync", ... (clgemm_build_info.backend) */
    const char *precision; /* "fp32", "tf32", "tf32x3", "f16" */
    const char *options;   /* extra build options */
} backend_choice;

/* 0, or -1 with e saying why the device cannot run it (unsupported, not an error). */
int backend_choose(const device_info *dev, const algo_def *algo, bool split, backend_choice *out,
                   errbuf *e);

#endif
