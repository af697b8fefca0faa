/* Probe: can a kernel built from OpenCL C use more than the 48 KiB of local memory that
 * NVIDIA's OpenCL reports?  First with the PTX's .shared array enlarged before a second build
 * (clCreateProgramWithBinary), then with the array declared that large in the source.  ptxas
 * accepts up to 227 KiB of static shared memory for sm_90; whether the OpenCL compiler and
 * launch path let it run is what this measures.
 *   gcc -O2 -o big_local bench/probes/big_local.c -lOpenCL && ./big_local */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvidia_gpu.h"

static const char *src_fmt =
    "__kernel void fill(__global uint *out, const int n)\n"
    "{\n"
    "    __local uint buf[%d];\n"
    "    const int t = get_local_id(0), T = get_local_size(0);\n"
    "    for (int i = t; i < n; i += T) buf[i] = (uint)i * 2654435761u;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int i = t; i < n; i += T) out[get_group_id(0) * n + i] = buf[n - 1 - i];\n"
    "}\n";

#define CK(x) do { cl_int e_ = (x); if (e_) { printf("%s: %d\n", #x, e_); return 1; } } while (0)

int main(void)
{
    cl_device_id dev = nvidia_gpu();
    if (!dev) { printf("no NVIDIA device\n"); return 1; }
    cl_int st;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &st); CK(st);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &st); CK(st);
    char srcbuf[1024];
    snprintf(srcbuf, sizeof srcbuf, src_fmt, 10240);
    const char *src = srcbuf;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &st); CK(st);
    CK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
    size_t len; CK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL));
    char *ptx = calloc(1, len + 64); unsigned char *bins[1] = { (unsigned char *)ptx };
    CK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
    char *decl = strstr(ptx, "[40960]");
    if (!decl) { printf("no [40960] in the PTX:\n%s\n", ptx); return 1; }
    int sizes_kib[] = { 40, 64, 96, 128, 160, 200, 227, 64, 96, 200 };
    for (int s = 0; s < 10; s++) {
        int bytes = sizes_kib[s] * 1024, n = bytes / 4;
        char *mod = malloc(len + 64), num[32];
        size_t pre = (size_t)(decl - ptx);
        snprintf(num, sizeof num, "[%d]", bytes);
        memcpy(mod, ptx, pre); strcpy(mod + pre, num); strcat(mod, decl + strlen("[40960]"));
        size_t mlen = strlen(mod) + 1; const unsigned char *mb = (const unsigned char *)mod;
        cl_int bst;
        cl_program p2;
        if (s < 7) {
            p2 = clCreateProgramWithBinary(ctx, 1, &dev, &mlen, &mb, &bst, &st);
        } else {   /* declared in the source */
            snprintf(srcbuf, sizeof srcbuf, src_fmt, n);
            printf("(source) ");
            p2 = clCreateProgramWithSource(ctx, 1, &src, NULL, &st);
        }
        if (st || clBuildProgram(p2, 1, &dev, "", NULL, NULL)) {
            char log[2048] = ""; clGetProgramBuildInfo(p2, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
            printf("%3d KiB: build refused: %s\n", sizes_kib[s], log); continue;
        }
        cl_kernel k = clCreateKernel(p2, "fill", &st); CK(st);
        cl_ulong lm = 0; clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
        int groups = 264;
        cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)groups * n * 4, NULL, &st); CK(st);
        CK(clSetKernelArg(k, 0, sizeof out, &out)); CK(clSetKernelArg(k, 1, sizeof n, &n));
        size_t l = 256, g = (size_t)groups * l;
        st = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
        cl_int fin = clFinish(q);
        if (st || fin) { printf("%3d KiB: kernel local %llu B, launch %d finish %d\n", sizes_kib[s], (unsigned long long)lm, st, fin); continue; }
        unsigned *h = malloc((size_t)groups * n * 4);
        CK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, (size_t)groups * n * 4, h, 0, NULL, NULL));
        long bad = 0;
        for (int gi = 0; gi < groups; gi++) for (int i = 0; i < n; i++)
            bad += h[(size_t)gi * n + i] != (unsigned)(n - 1 - i) * 2654435761u;
        printf("%3d KiB: kernel local %llu B, ran, %ld wrong of %ld\n", sizes_kib[s], (unsigned long long)lm, bad, (long)groups * n);
        free(h); clReleaseMemObject(out); clReleaseKernel(k); clReleaseProgram(p2); free(mod);
    }
    return 0;
}
