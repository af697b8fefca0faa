/* What plan.c and plan_build.c (the compile of a plan) share; not part of the library. */
#ifndef CLGEMM_PLAN_BUILD_H
#define CLGEMM_PLAN_BUILD_H

#include "gemm.h"

/* Compiles a plan whose parameters, build and launch shape plan.c has resolved: its kernel,
 * pre-pass kernels and split-K reduction, with maxnreg (checked; 0: the compiler's choice) as
 * the kernel's register cap.  On failure the plan holds nothing to release; e says why and
 * *log holds the compiler's log where there is one. */
plan_status plan_build(gemm_plan *plan, cl_context ctx, const device_info *dev, long maxnreg,
                       char **log, errbuf *e);

#endif
