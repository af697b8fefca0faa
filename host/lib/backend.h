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

/* Kernels that take A and B as 16-bit values (f16 or bf16 bits in ushort buffers, C float).
 * Only the tensor_core step has one so far: NVIDIA mma.sync m16n8k16 (sm_80+), or its
 * emulation with CLGEMM_EMULATE_MATRIX=1. */
typedef struct backend16_choice {
    const char *file, *kernel; /* under cl/, and the __kernel in it */
    const char *name;          /* "nvidia mma.sync", "emulated mma.sync" */
    const char *precision;     /* "f16", "bf16" */
    const char *options;       /* extra build options (-DBF16=...) */
    const char *defaults;      /* its tile parameters, in place of the registry row's */
    int ld_multiple;           /* offsets and leading dimensions of A, B (and C) */
} backend16_choice;

/* Whether the algorithm has a 16-bit kernel at all (on some device). */
bool backend_has_16bit(const algo_def *algo);
/* dtype: 1 f16, 2 bf16 (clgemm_dtype).  0, or -1 with e saying why this device cannot. */
int backend_choose_16bit(const device_info *dev, const algo_def *algo, int dtype,
                         backend16_choice *out, errbuf *e);

#endif
