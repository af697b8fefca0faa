/* A resolved plan's compile: its kernel's options (the parameters and the build as -D
 * defines), the program, its kernel, the pre-pass and split-K reduction, and the local-memory
 * check that only a compiled kernel can answer. */
#include "plan_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "program.h"

/* The build's defines (cl/common.h), only those that differ from the one-problem, untransposed,
 * float-C, no-epilogue default: a default build's options stay those of earlier versions, and
 * so do their cache entries. */
static void build_to_defines(const gemm_build *b, char *out, size_t size)
{
    snprintf(out, size, "%s%s%s", b->batched ? " -DGEMM_BATCHED=1" : "",
             b->trans_a ? " -DGEMM_TRANS_A=1" : "", b->trans_b ? " -DGEMM_TRANS_B=1" : "");
    size_t used = strlen(out);
    if (b->c_type)
        used += (size_t)snprintf(out + used, size - used, " -DGEMM_CTYPE=%d", b->c_type);
    if (b->epilogue && used < size)
        used += (size_t)snprintf(out + used, size - used, " -DGEMM_EPILOGUE=%d", b->epilogue);
    if (b->bias_rows && used < size)
        used += (size_t)snprintf(out + used, size - used, " -DGEMM_BIAS_ROWS=1");
    if (b->trans_c && used < size)
        snprintf(out + used, size - used, " -DGEMM_TRANS_C=1");
}

plan_status plan_build(gemm_plan *plan, cl_context ctx, const device_info *dev, long maxnreg,
                       char **log, errbuf *e)
{
    const variant *v = plan->variant;
    char *source = kernel_source_load(v->file, e);
    if (!source)
        return PLAN_ERROR;
    char defines[400], build_defines[160], options[1024];
    params kernel_params = plan->params; /* less SPLITK, SWAP, READT, MAXNREG: the host's own */
    kernel_params.count = 0;
    for (int i = 0; i < plan->params.count; i++)
        if (strcmp(plan->params.kv[i].key, "SPLITK") != 0 &&
            strcmp(plan->params.kv[i].key, "SWAP") != 0 &&
            strcmp(plan->params.kv[i].key, "READT") != 0 &&
            strcmp(plan->params.kv[i].key, "MAXNREG") != 0)
            kernel_params.kv[kernel_params.count++] = plan->params.kv[i];
    /* MAXNREG=N caps the kernel's registers in its PTX (program.h); 0 leaves the compiler's
     * choice. */
    char maxnreg_option[48] = "";
    if (maxnreg > 0)
        snprintf(maxnreg_option, sizeof maxnreg_option, " %s%ld", PROGRAM_MAXNREG_OPTION,
                 maxnreg);
    params_to_defines(&kernel_params, defines, sizeof defines);
    /* A split plan's kernel writes plain float partial sums; C's type and the epilogue are
     * the reduction's (splitk.c), which alone stores C; step 10 stores C itself. */
    gemm_build kernel_build = plan->build, reduce_build = { .batched = false };
    if (plan->splitk > 1 && !plan->ksplit_fused) {
        reduce_build.c_type = kernel_build.c_type;
        reduce_build.epilogue = kernel_build.epilogue;
        reduce_build.bias_rows = kernel_build.bias_rows;
        reduce_build.trans_c = kernel_build.trans_c;
        kernel_build.c_type = kernel_build.epilogue = 0;
        kernel_build.bias_rows = kernel_build.trans_c = false;
    }
    build_to_defines(&kernel_build, build_defines, sizeof build_defines);
    const char *extra = getenv("CLGEMM_BUILD_OPTIONS"); /* e.g. -cl-nv-verbose */
    /* Kernels that size their local memory by the device (step 10) read what it really
     * allows from CLGEMM_LOCAL_BYTES. */
    /* Step 11's split moves its partial sums as atomic words, the only cross-group order
     * OpenCL 1.2 gives; on NVIDIA a device-wide PTX fence orders plain accesses instead
     * (cl/skinny_ksplit.h). */
    const bool nv_partials = plan->ksplit_fused && !v->tma && dev->nv_cc_major >= 0;
    snprintf(options, sizeof options, "%s %s -DDTYPE=%d %s%s%s%s%s -DCLGEMM_LOCAL_BYTES=%llu %s",
             PROGRAM_BASE_OPTIONS, v->options, plan->dtype, defines, build_defines,
             plan->ksplit_fused ? " -DGEMM_KSPLIT=1" : "",
             nv_partials ? " -DCLGEMM_NV_PARTIALS=1" : "", maxnreg_option,
             (unsigned long long)device_local_mem_usable(dev), extra ? extra : "");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool unsupported = false;
    plan->program =
        program_build(ctx, dev, source, options, log, &plan->from_cache, &unsupported, e);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    plan->build_ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
    free(source);
    if (!plan->program)
        return unsupported ? PLAN_UNSUPPORTED : PLAN_BUILD_FAILED;

    cl_int st;
    plan->kernel = clCreateKernel(plan->program, v->kernel, &st);
    if (!plan->kernel) {
        err_set(e, "clCreateKernel(%s) failed: %s", v->kernel, cl_error_name(st));
        gemm_plan_release(plan);
        return PLAN_ERROR;
    }
    if (prepass_create(plan, e) != 0) {
        gemm_plan_release(plan);
        return PLAN_ERROR;
    }
    build_to_defines(&reduce_build, build_defines, sizeof build_defines);
    if (!plan->ksplit_fused && splitk_create(plan, ctx, dev, build_defines, log, e) != 0) {
        gemm_plan_release(plan);
        return PLAN_BUILD_FAILED;
    }
    /* Local memory is known once the kernel is compiled.  CL_KERNEL_WORK_GROUP_SIZE is not
     * used as a gate: NVIDIA's driver reports 256 for kernels that declare
     * reqd_work_group_size(32, 32, 1) and then runs them correctly at 1024; a size the device
     * truly refuses fails at enqueue, with its name. */
    cl_ulong kernel_local = 0;
    st = clGetKernelWorkGroupInfo(plan->kernel, dev->id, CL_KERNEL_LOCAL_MEM_SIZE,
                                  sizeof kernel_local, &kernel_local, NULL);
    if (st != CL_SUCCESS) {
        err_set(e, "clGetKernelWorkGroupInfo(%s) failed: %s", v->kernel, cl_error_name(st));
        gemm_plan_release(plan);
        return PLAN_ERROR;
    }
    if (kernel_local > device_local_mem_usable(dev)) {
        err_set(e, "needs %llu bytes of local memory, the device has %llu",
                (unsigned long long)kernel_local,
                (unsigned long long)device_local_mem_usable(dev));
        gemm_plan_release(plan);
        return PLAN_UNSUPPORTED;
    }
    return PLAN_OK;
}
