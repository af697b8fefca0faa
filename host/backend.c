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
        out->precision = intel ? "f16" : "fp32";
        out->options = "-cl-std=CL2.0";
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
