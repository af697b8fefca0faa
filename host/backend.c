#include "backend.h"

#include <stdlib.h>
#include <string.h>

/* The files of the other vendors' matrix paths (compile-tested in CI, see
 * tests/test_vendor_compile.sh; no such GPU has run them yet). */
#define INTEL_FILE "tensor_core_intel.cl"
#define AMD_FILE "tensor_core_amd.cl"

static bool emulation_requested(void)
{
    const char *v = getenv("CLGEMM_EMULATE_MATRIX");
    return v && *v && strcmp(v, "0") != 0;
}

static bool is_amd_matrix_gpu(const device_info *dev)
{
    bool amd = strstr(dev->vendor, "Advanced Micro Devices") || strstr(dev->vendor, "AMD");
    return amd && (dev->type & CL_DEVICE_TYPE_GPU) &&
           (strncmp(dev->name, "gfx90a", 6) == 0 || strncmp(dev->name, "gfx942", 6) == 0 ||
            strncmp(dev->name, "gfx11", 5) == 0);
}

/* Xe-HPC and Xe2 run the matrix built-in on 16-wide subgroups, DG2 on 8-wide ones. */
static size_t smallest_subgroup(const device_info *dev)
{
    size_t sizes[16], bytes = 0, smallest = 0;
    if (clGetDeviceInfo(dev->id, 0x4108 /* CL_DEVICE_SUB_GROUP_SIZES_INTEL */, sizeof sizes,
                        sizes, &bytes) == CL_SUCCESS)
        for (size_t i = 0; i < bytes / sizeof sizes[0]; i++)
            if (!smallest || sizes[i] < smallest)
                smallest = sizes[i];
    return smallest;
}

int backend_choose(const device_info *dev, const algo_def *algo, bool split, backend_choice *out,
                   errbuf *e)
{
    *out = (backend_choice){ algo->file, "opencl", algo->desc.precision, "-cl-std=CL1.2" };
    if (!algo->matrix_units)
        return 0;
    if (dev->nv_cc_major >= 8) {
        out->name = "nvidia mma.sync";
        return 0;
    }
    bool intel = device_has_extension(dev, "cl_intel_subgroup_matrix_multiply_accumulate");
    if ((intel || is_amd_matrix_gpu(dev)) && !emulation_requested()) {
        if (split) {
            err_set(e, "tf32x3 has only the NVIDIA mma.sync backend so far");
            return -1;
        }
        out->file = intel ? INTEL_FILE : AMD_FILE;
        out->name = intel ? "intel dpas" : "amd mfma";
        /* gfx11's WMMA takes f16 inputs; MFMA on gfx90a/gfx942 multiplies fp32 itself. */
        bool rdna3 = !intel && strncmp(dev->name, "gfx11", 5) == 0;
        out->precision = intel || rdna3 ? "f16" : "fp32";
        out->options = intel && smallest_subgroup(dev) >= 16 ? "-cl-std=CL2.0 -DSG=16"
                                                             : "-cl-std=CL2.0";
        return 0;
    }
    if (emulation_requested()) {
        out->name = "emulated mma.sync";
        out->options = "-cl-std=CL1.2 -DCLGEMM_EMULATE_MMA=1";
        return 0;
    }
    err_set(e, "needs matrix hardware: NVIDIA sm_80+ (mma.sync), Intel "
               "cl_intel_subgroup_matrix_multiply_accumulate, or AMD gfx90a/gfx942/gfx11 "
               "(CLGEMM_EMULATE_MATRIX=1 emulates it, slowly)");
    return -1;
}
