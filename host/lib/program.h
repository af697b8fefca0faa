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
 * compiler's log (caller frees) and NULL is returned with e naming the failure.  On an
 * NVIDIA device of compute capability 8.0 or later PROGRAM_NV_SM80_OPTION is added to the
 * options.
 *
 * When options contain PROGRAM_SM90A_OPTION (as a word of its own), the build goes through
 * the sm_90a post-pass of ptx_retarget.h: built from source, its PTX read back, rewritten and
 * built again; the cache keeps the final binary.  If the device is not NVIDIA compute
 * capability 9.x, or the driver refuses the rewritten PTX, NULL comes back with *unsupported
 * set and the reason in e (and the second build's log in *log): the plan is "unsupported on
 * this device", not a build failure.  *unsupported is false on every other outcome. */
cl_program program_build(cl_context ctx, const device_info *dev, const char *source,
                         const char *options, char **log, bool *cached, bool *unsupported,
                         errbuf *e);

/* The build option that asks for the sm_90a post-pass.  It is a -D define on purpose: the
 * kernel sees it too and compiles its Hopper instructions as PTX-comment markers (see
 * cl/wgmma.h), where without it the same file uses its portable emulation. */
#define PROGRAM_SM90A_OPTION "-DCLGEMM_PTX_SM90A=1"
bool program_wants_sm90a(const char *options);

/* The build option that asks for a register cap, `-DCLGEMM_PTX_MAXNREG=N` (a plan's MAXNREG
 * parameter): on NVIDIA the build goes through the PTX post-pass of ptx_maxnreg.h (with the
 * sm_90a one where both are asked for); elsewhere NULL comes back with *unsupported set.
 * program_ptx_maxnreg returns N, 0 where the option is absent, -1 where it is malformed or N
 * lies outside PTX_MAXNREG_MIN..PTX_MAXNREG_MAX. */
#define PROGRAM_MAXNREG_OPTION "-DCLGEMM_PTX_MAXNREG="
int program_ptx_maxnreg(const char *options);

/* Options every kernel is built with, before its backend's (-cl-std, see backend.h) and its
 * -D parameters. */
#define PROGRAM_BASE_OPTIONS "-cl-mad-enable"

/* What program_build adds on an NVIDIA device of compute capability 8.0 or later: its compiler
 * takes inline PTX, and sm_80's instructions exist there, so a kernel may use them (the
 * 16-bit C conversions of cl/epilogue.h) where this is defined, and its portable form
 * elsewhere. */
#define PROGRAM_NV_SM80_OPTION "-DCLGEMM_NV_SM80=1"

#endif
