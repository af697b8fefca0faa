/* Probe: the floor of one kernel as OpenCL's profiling events time it on this device, the
 * clock clgemm's rows are timed by.  A kernel that does nothing, one that declares local
 * memory (48 KiB, 128 KiB, 200 KiB) and touches it, one group and one per compute unit, with
 * 128 and 288 work-items; 300 runs each, the median and the minimum of END - START, and of
 * START - SUBMIT (how long the command waited to start).  Two ways: each run enqueued once
 * the one before has finished ("idle"), and all runs enqueued back to back before one
 * clFinish ("queued", as clgemm times its rows), where the span from the first run's START
 * to the last one's END over the runs is printed too.
 *   gcc -O2 -o launch_floor bench/probes/launch_floor.c -lOpenCL && ./launch_floor */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvidia_gpu.h"

static const char *kernel_src =
    "__kernel void k(__global uint *out)\n"
    "{\n"
    "#if WORDS\n"
    "    __local uint buf[WORDS];\n"
    "    const int t = get_local_id(0);\n"
    "    buf[t] = t;\n"
    "    buf[WORDS - 1 - t] = t;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (buf[(t * 7) % WORDS] == 0xffffffffu) out[0] = 1;\n"
    "#else\n"
    "    if (get_global_id(0) == 0xffffffffu) out[0] = 1;\n"
    "#endif\n"
    "}\n";

#define CK(x) do { cl_int e_ = (x); if (e_) { printf("%s: %d\n", #x, e_); return 1; } } while (0)

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    cl_device_id dev = nvidia_gpu();
    if (!dev) { printf("no NVIDIA device\n"); return 1; }
    cl_uint cus = 0;
    CK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL));
    cl_int st;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &st); CK(st);
    const cl_queue_properties qp[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, qp, &st); CK(st);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &st); CK(st);
    const int kib[] = { 0, 48, 128, 200 };
    const size_t locals[] = { 128, 288 };
    enum { RUNS = 300 };
    static double run_t[RUNS], wait_t[RUNS];
    for (size_t s = 0; s < sizeof kib / sizeof kib[0]; s++) {
        char opts[64];
        snprintf(opts, sizeof opts, "-DWORDS=%d", kib[s] * 256);
        const char *src = kernel_src;
        cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &st); CK(st);
        CK(clBuildProgram(p, 1, &dev, opts, NULL, NULL));
        cl_kernel k = clCreateKernel(p, "k", &st); CK(st);
        CK(clSetKernelArg(k, 0, sizeof out, &out));
        for (size_t l = 0; l < 2; l++)
            for (int groups = 1; groups <= (int)cus; groups += (int)cus - 1) {
                const size_t local = locals[l], global = local * (size_t)groups;
                for (int queued = 0; queued <= 1; queued++) {
                    static cl_event evs[RUNS + 20];
                    for (int r = 0; r < RUNS + 20; r++) {
                        CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &evs[r]));
                        if (!queued)
                            CK(clWaitForEvents(1, &evs[r]));
                    }
                    CK(clFinish(q));
                    cl_ulong first = 0, last = 0;
                    for (int r = 0; r < RUNS + 20; r++) {
                        cl_ulong sub, start, end;
                        CK(clGetEventProfilingInfo(evs[r], CL_PROFILING_COMMAND_SUBMIT, sizeof sub, &sub, NULL));
                        CK(clGetEventProfilingInfo(evs[r], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
                        CK(clGetEventProfilingInfo(evs[r], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
                        clReleaseEvent(evs[r]);
                        if (r == 20)
                            first = start;
                        last = end;
                        if (r >= 20) {
                            run_t[r - 20] = (double)(end - start) * 1e-3;
                            wait_t[r - 20] = (double)(start - sub) * 1e-3;
                        }
                    }
                    qsort(run_t, RUNS, sizeof run_t[0], cmp);
                    qsort(wait_t, RUNS, sizeof wait_t[0], cmp);
                    printf("%-6s local %3d KiB  %3zu work-items  %3d groups  END-START median %6.2f us"
                           "  min %6.2f  START-SUBMIT median %7.2f us  span/run %6.2f us\n",
                           queued ? "queued" : "idle", kib[s], local, groups, run_t[RUNS / 2],
                           run_t[0], wait_t[RUNS / 2], (double)(last - first) * 1e-3 / RUNS);
                }
            }
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    return 0;
}
