#include "cold_l2.h"

#include <stdlib.h>
#include <string.h>

/* Why a read and not a write.  Until 2026-11-27 the eviction filled the scratch buffer: that
 * left the L2 full of dirty lines, and the timed run, evicting them, wrote them back to memory
 * while it read its own operands, so a cold run paid for traffic that was not its own (about
 * 10 us on an H100 at every shape, the fill's write-back of the L2's 50 MiB; probe191 in
 * bench/results/2026-11-27_nvidia-h100/probes).  A read leaves clean lines, which cost nothing
 * to evict, as the weights the layers before a GEMM read do in a model.  The kernel folds what
 * it reads into one word and stores it only when the fold has a value no fill here gives, so
 * that no compiler may drop the loads, and it writes nothing in practice. */
static const char *evict_source =
    "__kernel void evict_l2(__global const uint4 *p, const uint n, __global uint *sink)\n"
    "{\n"
    "    uint4 fold = (uint4)(0);\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "        fold += p[i];\n"
    "    if (fold.x == 0x9e3779b9u && fold.y == 0x7f4a7c15u)\n"
    "        sink[0] = fold.z ^ fold.w;\n"
    "}\n";

const char *cold_l2_method(void)
{
    const char *w = getenv("CLGEMM_COLD_L2_WRITE");
    return w && strcmp(w, "1") == 0 ? "write" : "read";
}

int cold_l2_create(session *s, cold_l2 *c, errbuf *e)
{
    memset(c, 0, sizeof *c);
    c->write = strcmp(cold_l2_method(), "write") == 0;
    cl_int err;
    c->scratch = clCreateBuffer(s->cl, CL_MEM_READ_WRITE, COLD_L2_BYTES, NULL, &err);
    if (!c->scratch) {
        err_set(e, "clCreateBuffer(--cold-l2 scratch, %zu MiB) failed: %s", COLD_L2_BYTES >> 20,
                cl_error_name(err));
        return -1;
    }
    const cl_uint zero = 0;
    CL_TRY(e, clEnqueueFillBuffer(s->queue, c->scratch, &zero, sizeof zero, 0, COLD_L2_BYTES,
                                  0, NULL, NULL));
    if (c->write)
        return 0;
    c->sink = clCreateBuffer(s->cl, CL_MEM_WRITE_ONLY, sizeof(cl_uint), NULL, &err);
    if (!c->sink) {
        err_set(e, "clCreateBuffer(--cold-l2 sink) failed: %s", cl_error_name(err));
        goto fail;
    }
    c->program = clCreateProgramWithSource(s->cl, 1, &evict_source, NULL, &err);
    if (!c->program) {
        err_set(e, "clCreateProgramWithSource(--cold-l2 eviction) failed: %s",
                cl_error_name(err));
        goto fail;
    }
    CL_TRY(e, clBuildProgram(c->program, 1, &s->dev->id, "", NULL, NULL));
    c->kernel = clCreateKernel(c->program, "evict_l2", &err);
    if (!c->kernel) {
        err_set(e, "clCreateKernel(evict_l2) failed: %s", cl_error_name(err));
        goto fail;
    }
    const cl_uint n = (cl_uint)(COLD_L2_BYTES / 16);
    CL_TRY(e, clSetKernelArg(c->kernel, 0, sizeof(cl_mem), &c->scratch));
    CL_TRY(e, clSetKernelArg(c->kernel, 1, sizeof n, &n));
    CL_TRY(e, clSetKernelArg(c->kernel, 2, sizeof(cl_mem), &c->sink));
    /* enough work-items to keep every compute unit's loads in flight, a whole number of
     * groups that the device allows */
    c->local = s->dev->max_work_group < 256 ? s->dev->max_work_group : 256;
    c->global = (size_t)(s->dev->compute_units ? s->dev->compute_units : 1) * 2048;
    c->global -= c->global % c->local;
    return 0;
fail:
    cold_l2_release(c);
    return -1;
}

int cold_l2_enqueue(session *s, const cold_l2 *c, unsigned seq, errbuf *e)
{
    if (c->write) {
        const cl_uint pattern = seq; /* fresh data each time, in case a device skips no-ops */
        CL_TRY(e, clEnqueueFillBuffer(s->queue, c->scratch, &pattern, sizeof pattern, 0,
                                      COLD_L2_BYTES, 0, NULL, NULL));
        return 0;
    }
    CL_TRY(e, clEnqueueNDRangeKernel(s->queue, c->kernel, 1, NULL, &c->global, &c->local, 0,
                                     NULL, NULL));
    return 0;
fail:
    return -1;
}

void cold_l2_release(cold_l2 *c)
{
    if (c->kernel)
        clReleaseKernel(c->kernel);
    if (c->program)
        clReleaseProgram(c->program);
    if (c->sink)
        clReleaseMemObject(c->sink);
    if (c->scratch)
        clReleaseMemObject(c->scratch);
    memset(c, 0, sizeof *c);
}
