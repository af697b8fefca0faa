/* Probe: how far the epilogue's GELU (cl/epilogue.h's gemm_act, as built for the device) is
 * from the tanh-form GELU evaluated in double on the same device, over every float x with
 * 2^-20 <= |x| < 2^10 (436 million values; every STRIDE-th with a second argument).
 * docs/precision.md bounds the error by 2^-20 |x| (eta); this measures it where a proof about
 * NVIDIA's native functions would otherwise rest on its documentation.  The first GPU, else
 * the first device (PoCL: a check of the probe itself, with a stride).
 *   gcc -O2 -o gelu_accuracy bench/probes/gelu_accuracy.c -lOpenCL -lm
 *   ./gelu_accuracy path/to/cl [STRIDE]   (cl: the folder of common.h and epilogue.h) */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each work-item: x from its bit pattern, the kernel's GELU in fp32, the reference in double;
 * out = |y - ref| / |x| in units of 2^-20 (NaN where they disagree about NaN). */
static const char *src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#include \"common.h\"\n#include \"epilogue.h\"\n"
    "__kernel void probe(const uint first, const uint stride, const int negative,\n"
    "                    __global float *out)\n"
    "{\n"
    "    const uint i = get_global_id(0);\n"
    "    const float x = as_float((first + i * stride) | (negative ? 0x80000000u : 0u));\n"
    "    const float y = gemm_act(x);\n"
    "    const double d = x;\n"
    "    const double ref = 0.5 * d * (1.0 + tanh(0.7978845608028654 * (d + 0.044715 * d * d * d)));\n"
    "    out[i] = (float)(fabs((double)y - ref) / fabs(d) * 1048576.0);\n"
    "}\n";

#define CK(x)                                                                                 \
    do {                                                                                      \
        cl_int e_ = (x);                                                                      \
        if (e_) {                                                                             \
            printf("%s: %d\n", #x, e_);                                                       \
            return 1;                                                                         \
        }                                                                                     \
    } while (0)

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s CL_DIR [STRIDE]\n", argv[0]);
        return 2;
    }
    const uint32_t stride = argc == 3 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1;
    if (stride < 1) {
        fprintf(stderr, "STRIDE must be at least 1\n");
        return 2;
    }
    cl_platform_id plats[8];
    cl_uint np = 0;
    CK(clGetPlatformIDs(8, plats, &np));
    cl_device_id dev = NULL;
    for (int pass = 0; pass < 2 && !dev; pass++)
        for (cl_uint i = 0; i < np && !dev; i++)
            if (clGetDeviceIDs(plats[i], pass ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev,
                               NULL) != CL_SUCCESS)
                dev = NULL;
    if (!dev) {
        printf("no OpenCL device\n");
        return 1;
    }
    char name[256];
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    cl_int st;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &st);
    CK(st);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &st);
    CK(st);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &st);
    CK(st);
    char opts[4200];
    snprintf(opts, sizeof opts, "-I %s -DGEMM_EPILOGUE=4 -DCLGEMM_NV_SM80=1", argv[1]);
    if (clBuildProgram(prog, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
        static char log[1 << 16];
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("build failed:\n%s\n", log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "probe", &st);
    CK(st);
    const size_t chunk = (size_t)1 << 24;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, chunk * 4, NULL, &st);
    CK(st);
    float *h = malloc(chunk * 4);
    const uint32_t lo = 0x35800000u /* 2^-20 */, hi = 0x44800000u /* 2^10 */;
    double worst = 0, worst_x = 0;
    long nan_mismatch = 0, count = 0;
    for (int neg = 0; neg < 2; neg++)
        for (uint32_t first = lo; first < hi; first += (uint32_t)(chunk * stride)) {
            size_t left = (hi - first + stride - 1) / stride;
            size_t n = left < chunk ? left : chunk;
            CK(clSetKernelArg(k, 0, sizeof first, &first));
            CK(clSetKernelArg(k, 1, sizeof stride, &stride));
            CK(clSetKernelArg(k, 2, sizeof neg, &neg));
            CK(clSetKernelArg(k, 3, sizeof out, &out));
            CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
            CK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * 4, h, 0, NULL, NULL));
            for (size_t i = 0; i < n; i++) {
                if (isnan(h[i]))
                    nan_mismatch++;
                else if (h[i] > worst) {
                    worst = h[i];
                    worst_x = (neg ? -1 : 1) * as_float(first + (uint32_t)i * stride);
                }
            }
            count += (long)n;
        }
    printf("%s: %ld values (stride %u), 2^-20 <= |x| < 2^10: max |gelu - ref| / |x| = %.4f * 2^-20 at x = "
           "%.9g; NaN results %ld\n",
           name, count, stride, worst, worst_x, nan_mismatch);
    free(h);
    return worst < 1.0 && nan_mismatch == 0 ? 0 : 1;
}
