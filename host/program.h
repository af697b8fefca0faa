/* Turning a cl/ file plus -D parameters into a built cl_program. */
#ifndef CLGEMM_PROGRAM_H
#define CLGEMM_PROGRAM_H

#include <CL/cl.h>

#include <stdbool.h>

#include "clerr.h"
#include "device.h"

/* The text of a cl/ file with its `#include "x.h"` lines replaced by those files, read
 * from $CLGEMM_KERNEL_DIR when set (for kernel hacking without rebuilding) and from the
 * copy embedded in the binary otherwise.  Caller frees. */
char *kernel_source_load(const char *file, errbuf *e);

/* Builds source for one device, through the on-disk cache (cache.h) when it is on;
 * *cached says whether the binary came from there.  On a build failure *log receives the
 * compiler's log (caller frees) and NULL is returned with e naming the failure. */
cl_program program_build(cl_context ctx, const device_info *dev, const char *source,
                         const char *options, char **log, bool *cached, errbuf *e);

/* Options every kernel is built with, before its backend's (-cl-std, see backend.h) and its
 * -D parameters. */
#define PROGRAM_BASE_OPTIONS "-cl-mad-enable"

#endif
