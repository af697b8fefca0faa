#include "backend.h"
#include "program.h"
#include "tensor_map.h"

#include <stdlib.h>
#include <string.h>

/* The files of the other vendors' matrix paths (compile-tested in CI, see
 * tests/test_vendor_compile.sh; no such GPU has run them yet). */
#define INTEL_FILE "vendor/intel_dpas.cl"
#define AMD_FILE "vendor/amd_matrix.cl"
#define WGMMA_FILE "09_wgmma.cl"
#define TMA_FILE "10_wgmma_tma.cl"
#define TMA_TF32_FILE "10_wgmma_tma_tf32.cl"

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

/* Hopper's warpgroup MMA (cl/09_wgmma.cl): wgmma exists only on sm_90a, which NVIDIA's
 * OpenCL compiler does not target by itself, so the build goes through the PTX post-pass of
 * host/lib/program.c (PROGRAM_SM90A_OPTION).  No other vendor has this instruction; the emulation
 * runs the same kernel anywhere, slowly. */
static int choose_wgmma(const device_info *dev, backend_choice *out, errbuf *e)
{
    if (dev->nv_cc_major == 9) {
        out->name = "nvidia wgmma (sm_90a)";
        out->options = "-cl-std=CL1.2 " PROGRAM_SM90A_OPTION;
        return 0;
    }
    if (emulation_requested()) {
        out->name = "emulated wgmma";
        out->options = "-cl-std=CL1.2 -DCLGEMM_EMULATE_WGMMA=1";
        return 0;
    }
    if (dev->nv_cc_major >= 0)
        err_set(e, "needs matrix hardware with wgmma: NVIDIA compute capability 9.x (Hopper), "
                   "this GPU is %d.%d (CLGEMM_EMULATE_MATRIX=1 emulates it, slowly)",
                dev->nv_cc_major, dev->nv_cc_minor);
    else
        err_set(e, "needs matrix hardware with wgmma: NVIDIA compute capability 9.x (Hopper) "
                   "(CLGEMM_EMULATE_MATRIX=1 emulates it, slowly)");
    return -1;
}

int backend_choose(const device_info *dev, const algo_def *algo, bool split, backend_choice *out,
                   errbuf *e)
{
    /* SPLIT=1 makes any TF32 kernel tf32x3, whichever row asked for it. */
    *out = (backend_choice){ algo->file, "opencl", split ? "tf32x3" : algo->desc.precision,
                             "-cl-std=CL1.2" };
    if (!algo->matrix_units)
        return 0;
    if (strcmp(algo->file, WGMMA_FILE) == 0)
        return choose_wgmma(dev, out, e);
    /* Step 10's TF32 kernels: B^T from registers (TMA_TF32_FILE), or packed by a pre-pass
     * into local memory beside A (TMA_FILE with TF32=1, the wgmma_tma_packed row). */
    if (strcmp(algo->file, TMA_TF32_FILE) == 0 || strcmp(algo->file, TMA_FILE) == 0) {
        if (choose_wgmma(dev, out, e) != 0)
            return -1;
        /* The real copies need tensor maps, which only libcuda encodes. */
        if (dev->nv_cc_major == 9 && !tensor_map_available(e))
            return -1;
        out->name = dev->nv_cc_major == 9 ? "nvidia wgmma+tma (sm_90a)" : "emulated wgmma+tma";
        return 0;
    }
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

/* The algorithms with a 16-bit kernel: the registry row stays the fp32 one (its name, summary
 * and ld_multiple), and --dtype f16/bf16 swaps in this file, kernel and defaults.  The
 * defaults are those of the file (64 x 64 warp tiles, four warps, BK = 32). */
static const struct {
    const char *algorithm, *file, *kernel, *defaults;
} kernels16[] = {
    { "tensor_core", "08_tensor_core_f16.cl", "gemm_tensor_core_f16",
      "BM=128 BN=128 BK=32 WM=64 WN=64 TM=32 TN=4" },
    /* wgmma m64nNk16 on 64-byte swizzled local memory: two warpgroups on 128 x 128, BK = 32,
     * two stages.  Fastest measured on the H100 (305-317 TFLOP/s at 4096^3 and 8192^3; the
     * unswizzled layout, SWZ=0, reached 147). */
    { "wgmma", "09_wgmma_f16.cl", "gemm_wgmma_16",
      "BM=128 BN=128 BK=32 WGN=128 STAGES=2 WAIT=0 SWZ=64 TM=16 TN=4" },
    /* Step 10: the same instruction fed by TMA copies through an mbarrier ring, one producer
     * warp and two consumer warpgroups on 128 x 256, three 64-deep slots (144 KiB: Hopper
     * gives a work-group 227 KiB although OpenCL reports 48), each slice's wgmmas waited for,
     * bands of 32 block rows (cl/10_wgmma_tma.cl).  Measured on the H100, f16 at 4096^3 /
     * 8192^3: 663 / 660 TFLOP/s (four slots 655 / 653); within 48 KiB the best was one
     * consumer on 64 x 256 with four 16-deep slots, 444 / 494. */
    { "wgmma_tma", TMA_FILE, "gemm_wgmma_tma",
      "BM=128 BN=256 BK=64 WGN=256 STAGES=3 INFLIGHT=0 THREADS=288 GM=32 TMA=1 TM=1 TN=1" },
};

bool backend_has_16bit(const algo_def *algo)
{
    for (size_t i = 0; i < sizeof kernels16 / sizeof kernels16[0]; i++)
        if (strcmp(kernels16[i].algorithm, algo->desc.name) == 0)
            return true;
    return false;
}

int backend_choose_16bit(const device_info *dev, const algo_def *algo, int dtype,
                         backend16_choice *out, errbuf *e)
{
    size_t i = 0;
    while (i < sizeof kernels16 / sizeof kernels16[0] &&
           strcmp(kernels16[i].algorithm, algo->desc.name) != 0)
        i++;
    if (i == sizeof kernels16 / sizeof kernels16[0]) {
        err_set(e, "has no kernel for 16-bit inputs (only tensor_core, wgmma and wgmma_tma have)");
        return -1;
    }
    if (dtype != 1 && dtype != 2) {
        err_set(e, "unknown 16-bit type %d", dtype);
        return -1;
    }
    bool bf16 = dtype == 2;
    *out = (backend16_choice){ kernels16[i].file, kernels16[i].kernel, "nvidia mma.sync",
                               bf16 ? "bf16" : "f16", bf16 ? "-cl-std=CL1.2 -DBF16=1"
                                                           : "-cl-std=CL1.2 -DBF16=0",
                               kernels16[i].defaults, 8 };
    /* wgmma: sm_90a through the post-pass, or its emulation (as choose_wgmma for fp32). */
    bool tma = strcmp(kernels16[i].file, TMA_FILE) == 0;
    if (strcmp(kernels16[i].file, "09_wgmma_f16.cl") == 0 || tma) {
        backend_choice wg;
        if (choose_wgmma(dev, &wg, e) != 0)
            return -1;
        /* The real copies need tensor maps, which only libcuda encodes. */
        if (tma && dev->nv_cc_major == 9 && !tensor_map_available(e))
            return -1;
        out->name = !tma ? wg.name
                    : dev->nv_cc_major == 9 ? "nvidia wgmma+tma (sm_90a)" : "emulated wgmma+tma";
        out->options = dev->nv_cc_major == 9
                           ? (bf16 ? "-cl-std=CL1.2 -DBF16=1 " PROGRAM_SM90A_OPTION
                                   : "-cl-std=CL1.2 -DBF16=0 " PROGRAM_SM90A_OPTION)
                           : (bf16 ? "-cl-std=CL1.2 -DBF16=1 -DCLGEMM_EMULATE_WGMMA=1"
                                   : "-cl-std=CL1.2 -DBF16=0 -DCLGEMM_EMULATE_WGMMA=1");
        return 0;
    }
    /* As for fp32 data: the hardware where there is one, else the emulation if asked for. */
    if (dev->nv_cc_major >= 8)
        return 0;
    /* Intel: the DPAS kernel with its inputs staged as they are (IN16); compile-tested with
     * ocloc for dg2 and pvc (tests/test_vendor_compile.sh), no Intel GPU has run it yet. */
    if (device_has_extension(dev, "cl_intel_subgroup_matrix_multiply_accumulate") &&
        !emulation_requested()) {
        const bool sg16 = smallest_subgroup(dev) >= 16;
        out->file = INTEL_FILE;
        out->kernel = "gemm_tensor_core";
        out->name = "intel dpas";
        out->options = sg16 ? (bf16 ? "-cl-std=CL2.0 -DSG=16 -DIN16=1 -DBF16=1"
                                    : "-cl-std=CL2.0 -DSG=16 -DIN16=1 -DBF16=0")
                            : (bf16 ? "-cl-std=CL2.0 -DIN16=1 -DBF16=1"
                                    : "-cl-std=CL2.0 -DIN16=1 -DBF16=0");
        out->defaults = "BM=128 BN=128 BK=32 TM=16 TN=4";
        return 0;
    }
    /* AMD RDNA 3 (gfx11): the WMMA kernel with its inputs staged as they are; compile-tested
     * with clang-15 for gfx1100.  CDNA's MFMA kernel reads fp32 only so far. */
    if (is_amd_matrix_gpu(dev) && strncmp(dev->name, "gfx11", 5) == 0 && !emulation_requested()) {
        out->file = AMD_FILE;
        out->kernel = "gemm_tensor_core";
        out->name = "amd wmma";
        out->options = bf16 ? "-cl-std=CL2.0 -DIN16=1 -DBF16=1" : "-cl-std=CL2.0 -DIN16=1 -DBF16=0";
        out->defaults = "BM=64 BN=64 BK=32 TM=4 TN=4";
        return 0;
    }
    if (emulation_requested()) {
        out->name = "emulated mma.sync";
        out->options = bf16 ? "-cl-std=CL1.2 -DBF16=1 -DCLGEMM_EMULATE_MMA=1"
                            : "-cl-std=CL1.2 -DBF16=0 -DCLGEMM_EMULATE_MMA=1";
        return 0;
    }
    /* CDNA's MFMA has f16 and bf16 forms too (32x32x8), with their own fragment layout: not
     * written yet. */
    err_set(e, "16-bit inputs need NVIDIA sm_80+ (mma.sync m16n8k16), Intel "
               "cl_intel_subgroup_matrix_multiply_accumulate or AMD gfx11 (WMMA) so far "
               "(CLGEMM_EMULATE_MATRIX=1 emulates it, slowly)");
    return -1;
}
