#include "hardware.h"

#include <stdlib.h>
#include <string.h>

#include "tensor_map.h"

bool emulation_requested(void)
{
    const char *v = getenv("CLGEMM_EMULATE_MATRIX");
    return v && *v && strcmp(v, "0") != 0;
}

static bool is_amd_gpu(const device_info *dev)
{
    return (strstr(dev->vendor, "Advanced Micro Devices") || strstr(dev->vendor, "AMD")) &&
           (dev->type & CL_DEVICE_TYPE_GPU);
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

static bool intel_dpas(const device_info *dev)
{
    return device_has_extension(dev, "cl_intel_subgroup_matrix_multiply_accumulate");
}

#define EMULATE_HINT " (CLGEMM_EMULATE_MATRIX=1 emulates it, slowly)"

bool hardware_has(const device_info *dev, hw_need need, errbuf *e)
{
    /* Real hardware always wins: CLGEMM_EMULATE_MATRIX=1 only lets a device without it run
     * the emulation rows (so the same tests check the hardware where there is some). */
    switch (need) {
    case NEED_NONE:
        return true;
    case NEED_EMULATION:
        if (emulation_requested())
            return true;
        err_set(e, "needs matrix hardware" EMULATE_HINT);
        return false;
    case NEED_NV_SM80:
        if (dev->nv_cc_major >= 8)
            return true;
        err_set(e, "needs matrix hardware: NVIDIA compute capability 8.0+ (mma.sync), Intel "
                   "DPAS or AMD MFMA/WMMA" EMULATE_HINT);
        return false;
    case NEED_NV_SM90:
    case NEED_NV_SM90_TMA:
        if (dev->nv_cc_major != 9) {
            if (dev->nv_cc_major >= 0)
                err_set(e, "needs wgmma: NVIDIA compute capability 9.x (Hopper), this GPU is "
                           "%d.%d" EMULATE_HINT, dev->nv_cc_major, dev->nv_cc_minor);
            else
                err_set(e, "needs wgmma: NVIDIA compute capability 9.x (Hopper)" EMULATE_HINT);
            return false;
        }
        /* The real copies need tensor maps, which only libcuda encodes. */
        return need == NEED_NV_SM90 || tensor_map_available(e);
    case NEED_INTEL_DPAS_SG8:
    case NEED_INTEL_DPAS_SG16:
        if (intel_dpas(dev) &&
            (smallest_subgroup(dev) >= 16) == (need == NEED_INTEL_DPAS_SG16))
            return true;
        err_set(e, "needs Intel cl_intel_subgroup_matrix_multiply_accumulate" EMULATE_HINT);
        return false;
    case NEED_AMD_MFMA:
        if (is_amd_gpu(dev) &&
            (strncmp(dev->name, "gfx90a", 6) == 0 || strncmp(dev->name, "gfx942", 6) == 0))
            return true;
        err_set(e, "needs AMD gfx90a or gfx942 (MFMA)" EMULATE_HINT);
        return false;
    case NEED_AMD_WMMA:
        if (is_amd_gpu(dev) && strncmp(dev->name, "gfx11", 5) == 0)
            return true;
        err_set(e, "needs AMD gfx11 (WMMA)" EMULATE_HINT);
        return false;
    }
    err_set(e, "unknown requirement %d", (int)need);
    return false;
}
