/* What program.c and program_ptx.c (the PTX post-passes) share; not part of the library. */
#ifndef CLGEMM_PROGRAM_INTERNAL_H
#define CLGEMM_PROGRAM_INTERNAL_H

#include "program.h"

/* The device's build log of prog (caller frees; NULL when there is none). */
char *program_build_log(cl_program prog, cl_device_id dev);
/* With CLGEMM_SHOW_BUILD_LOG set, prints the build log of a good build on stderr. */
void program_show_log(cl_program prog, cl_device_id dev, const char *what, const char *options);
/* The first line of a build log that says something, for a one-line reason. */
void program_first_words(const char *log, char *out, size_t size);

/* The PTX post-passes over the program `first` built from source: the sm_90a one (ptx_retarget.h)
 * where `retarget`, the register cap (ptx_maxnreg.h) where maxnreg > 0; the rewritten text
 * built again.  NULL with *unsupported set and the reason in e (the second build's log in
 * *log) when the device cannot take it. */
cl_program program_ptx_postpass(cl_context ctx, const device_info *dev, cl_program first,
                                const char *options, bool retarget, int maxnreg, char **log,
                                bool *unsupported, errbuf *e);

#endif
