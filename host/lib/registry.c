#include "registry.h"

#include <stdio.h>
#include <string.h>

#include "hardware.h"
#include "program.h"

#define SKINNY "WG=256 KT=32 RN=2 BM=1 UNROLL=4" /* step 11's defaults (M = 1) */

/* ---- the public names ---------------------------------------------------------------
 * { name, summary, defaults, ld_multiple, precision, step }, candidates.
 * The defaults and precision shown are those of fp32 data on the step's first variant. */
static const algo_def algorithms[] = {
    { { "naive", "one work-item per C element, neighbours walk rows (uncoalesced)",
        "BM=16 BN=16", 1, "fp32", 1 }, NULL, 0, false },
    { { "coalescing", "neighbouring work-items walk columns: coalesced B and C",
        "BM=8 BN=32", 1, "fp32", 2 }, NULL, 0, false },
    { { "tiled", "A and B tiles staged in local memory and reused BK times",
        "BM=32 BN=32 BK=32 TM=1 TN=1", 1, "fp32", 3 }, NULL, 0, false },
    { { "tiled_register", "1-D register tile: TM results per work-item",
        "BM=64 BN=64 BK=8 TM=8 TN=1", 1, "fp32", 4 }, NULL, 0, false },
    { { "block_tiled", "2-D TMxTN register tile built from outer products",
        "BM=128 BN=128 BK=8 TM=8 TN=8", 1, "fp32", 5 }, NULL, 0, false },
    { { "block_tiled_vectorized", "float4 loads and stores, A transposed in local memory",
        "BM=128 BN=128 BK=16 TM=8 TN=8 VEC=4", 4, "fp32", 6 }, NULL, 0, false },
    { { "warp_tiled", "warp tile between work-group and thread tiles, double-buffered local memory",
        "BM=128 BN=128 BK=8 TM=8 TN=8 WM=128 WN=16 VEC=4 CLAMP=0", 4, "fp32", 7 }, NULL, 0, false },
    { { "mma", "warp-wide matrix instructions: mma.sync on NVIDIA, DPAS on Intel, MFMA/WMMA on AMD",
        "BM=128 BN=128 BK=16 WM=64 WN=32 TM=16 TN=4", 4, "tf32", 8 }, NULL, 0, false },
    { { "wgmma", "Hopper warpgroup MMA on operands in local memory, fed by cp.async (16-bit data)",
        "BM=128 BN=128 BK=32 WGN=128 STAGES=2 WAIT=0 SWZ=64", 8, "f16", 9 }, NULL, 0, false },
    { { "wgmma_tma", "Hopper: TMA copies and an mbarrier ring feed wgmma, one producer warp",
        "BM=128 BN=256 BK=32 WGN=256 STAGES=4 GM=16 PACKA=1 PACKB=1", 1, "tf32", 10 }, NULL, 0, false },
    { { "skinny", "small M: B streamed once with 16-byte loads, K spread over work-items",
        SKINNY, 4, "fp32", 11 }, NULL, 0, true },
    { { "tensor_core", "the fastest matrix-unit path for the data's precision on this device",
        "", 4, "tf32", 0 }, "wgmma_tma mma", DT_F32 | DT_16BIT, false },
    { { "tensor_core_tf32x3", "fp32 accuracy on matrix units: hi/lo TF32 halves, three products",
        "", 4, "tf32x3", 0 },
      "wgmma_tma:BN=128,WGN=128,STAGES=3,SPLIT=1,PROMOTE=2 mma:SPLIT=1", DT_F32, false },
};

/* ---- the ways to run each step, best first ------------------------------------------ */
#define CL12 "-cl-std=CL1.2"
#define CL20 "-cl-std=CL2.0"
#define EMU_MMA CL12 " -DCLGEMM_EMULATE_MMA=1"
#define EMU_WGMMA CL12 " -DCLGEMM_EMULATE_WGMMA=1"
#define SM90A CL12 " " PROGRAM_SM90A_OPTION

/* trans: the transposed operands the kernel reads where they lie (registry.h) */
#define SIMT_T(name, file, kernel, defaults, extra, launch, ld, trans)                      \
    { name, DT_F32, NEED_NONE, "opencl", file, kernel, CL12, "fp32", defaults, extra, launch, \
      PREPASS_NONE, false, true, ld, trans, false }
#define SIMT(name, file, kernel, defaults, extra, launch, ld)                               \
    SIMT_T(name, file, kernel, defaults, extra, launch, ld, 0)

#define MMA_F32 "BM=128 BN=128 BK=16 WM=64 WN=32 TM=16 TN=4"
#define MMA_F32_KEYS "SPLIT PROMOTE LDMATRIX APAD BPAD"
#define MMA_16 "BM=128 BN=128 BK=32 WM=64 WN=64 TM=32 TN=4"
#define VENDOR_F32 "BM=128 BN=128 BK=16 TM=16 TN=4"
#define WGMMA_16 "BM=128 BN=128 BK=32 WGN=128 STAGES=2 WAIT=0 SWZ=64"
#define TMA_16 "BM=128 BN=256 BK=64 WGN=256 STAGES=3 INFLIGHT=0 GM=32"
#define TMA_F32 "BM=128 BN=256 BK=32 WGN=256 STAGES=4 GM=16 PACKA=1 PACKB=1"

static const variant variants[] = {
    SIMT("naive", "01_naive.cl", "gemm_naive", "BM=16 BN=16", "", LAUNCH_TILE_ROWS, 1),
    SIMT("coalescing", "02_coalescing.cl", "gemm_coalescing", "BM=8 BN=32", "", LAUNCH_TILE, 1),
    SIMT("tiled", "03_tiled.cl", "gemm_tiled", "BM=32 BN=32 BK=32 TM=1 TN=1", "", LAUNCH_TILE, 1),
    SIMT("tiled_register", "04_tiled_register.cl", "gemm_tiled_register",
         "BM=64 BN=64 BK=8 TM=8 TN=1", "", LAUNCH_TILE, 1),
    SIMT("block_tiled", "05_block_tiled.cl", "gemm_block_tiled", "BM=128 BN=128 BK=8 TM=8 TN=8",
         "", LAUNCH_TILE, 1),
    SIMT("block_tiled_vectorized", "06_block_tiled_vectorized.cl", "gemm_block_tiled_vectorized",
         "BM=128 BN=128 BK=16 TM=8 TN=8 VEC=4", "", LAUNCH_TILE, 4),
    /* Step 7 reads A stored K x M and B stored N x K in place (GEMM_TRANS_A/B). */
    SIMT_T("warp_tiled", "07_warp_tiled.cl", "gemm_warp_tiled",
           "BM=128 BN=128 BK=8 TM=8 TN=8 WM=128 WN=16 VEC=4 CLAMP=0 READT=0", "WARP APAD PREFETCH MAXNREG",
           LAUNCH_TILE, 4, TRANS_A | TRANS_B),

    /* Step 8: NVIDIA first, then the other vendors' doors (compile-tested only, see
     * docs/vendors.md), then the emulation. */
    { "mma", DT_F32, NEED_NV_SM80, "nvidia mma.sync", "08_mma.cl", "gemm_mma", CL12, "tf32",
      MMA_F32, MMA_F32_KEYS, LAUNCH_TILE, PREPASS_NONE, false, true, 4, 0, false },
    { "mma", DT_16BIT, NEED_NV_SM80, "nvidia mma.sync", "08_mma.cl", "gemm_mma", CL12, NULL,
      MMA_16, "APAD BPAD", LAUNCH_TILE, PREPASS_NONE, false, true, 8, 0, false },
    { "mma", DT_F32, NEED_INTEL_DPAS_SG16, "intel dpas", "vendor/intel_dpas.cl", "gemm_mma",
      CL20 " -DSG=16", "f16", VENDOR_F32, "", LAUNCH_TILE, PREPASS_NONE, false, true, 4, 0, false },
    { "mma", DT_F32, NEED_INTEL_DPAS_SG8, "intel dpas", "vendor/intel_dpas.cl", "gemm_mma",
      CL20, "f16", VENDOR_F32, "", LAUNCH_TILE, PREPASS_NONE, false, true, 4, 0, false },
    { "mma", DT_16BIT, NEED_INTEL_DPAS_SG16, "intel dpas", "vendor/intel_dpas.cl", "gemm_mma",
      CL20 " -DSG=16", NULL, "BM=128 BN=128 BK=32 TM=16 TN=4", "", LAUNCH_TILE, PREPASS_NONE,
      false, true, 8, 0, false },
    { "mma", DT_16BIT, NEED_INTEL_DPAS_SG8, "intel dpas", "vendor/intel_dpas.cl", "gemm_mma",
      CL20, NULL, "BM=128 BN=128 BK=32 TM=16 TN=4", "", LAUNCH_TILE, PREPASS_NONE, false, true,
      8, 0, false },
    { "mma", DT_F32, NEED_AMD_MFMA, "amd mfma", "vendor/amd_matrix.cl", "gemm_mma", CL20, "fp32",
      VENDOR_F32, "", LAUNCH_TILE, PREPASS_NONE, false, true, 4, 0, false },
    { "mma", DT_F32, NEED_AMD_WMMA, "amd wmma", "vendor/amd_matrix.cl", "gemm_mma", CL20, "f16",
      VENDOR_F32, "", LAUNCH_TILE, PREPASS_NONE, false, true, 4, 0, false },
    { "mma", DT_16BIT, NEED_AMD_WMMA, "amd wmma", "vendor/amd_matrix.cl", "gemm_mma", CL20, NULL,
      "BM=64 BN=64 BK=32 TM=4 TN=4", "", LAUNCH_TILE, PREPASS_NONE, false, true, 8, 0, false },
    { "mma", DT_F32, NEED_EMULATION, "emulated mma.sync", "08_mma.cl", "gemm_mma", EMU_MMA,
      "tf32", MMA_F32, MMA_F32_KEYS, LAUNCH_TILE, PREPASS_NONE, false, true, 4, 0, false },
    { "mma", DT_16BIT, NEED_EMULATION, "emulated mma.sync", "08_mma.cl", "gemm_mma", EMU_MMA,
      NULL, MMA_16, "APAD BPAD", LAUNCH_TILE, PREPASS_NONE, false, true, 8, 0, false },

    /* Step 9: 16-bit data only (fp32 data runs step 10's TF32 form). */
    { "wgmma", DT_16BIT, NEED_NV_SM90, "nvidia wgmma (sm_90a)", "09_wgmma.cl", "gemm_wgmma",
      SM90A, NULL, WGMMA_16, "", LAUNCH_WARPGROUPS, PREPASS_NONE, false, true, 8, 0, false },
    { "wgmma", DT_16BIT, NEED_EMULATION, "emulated wgmma", "09_wgmma.cl", "gemm_wgmma",
      EMU_WGMMA, NULL, WGMMA_16, "", LAUNCH_WARPGROUPS, PREPASS_NONE, false, true, 8, 0, false },

    /* Step 10: 16-bit operands read where they lie, transposed or not (TMA boxes and wgmma
     * transpose immediates; TMA needs their rows on 16 bytes); fp32 data as TF32 through the
     * packing pre-pass, which reads A and B as stored, transposed or not, at any offset and
     * leading dimension; SPLIT=1 is tf32x3.  C anywhere: the stores check its alignment.  A
     * batch is one launch (3-D tensor maps; the TF32 pre-pass packs every problem in one). */
    { "wgmma_tma", DT_16BIT, NEED_NV_SM90_TMA, "nvidia wgmma+tma (sm_90a)", "10_wgmma_tma.cl",
      "gemm_wgmma_tma", SM90A, NULL, TMA_16, "STAGED PERSIST TSTORE SETMAXNREG",
      LAUNCH_WARPGROUPS_PRODUCER, PREPASS_NONE, true, true, 8, TRANS_A | TRANS_B | C_ANY, true },
    { "wgmma_tma", DT_F32, NEED_NV_SM90_TMA, "nvidia wgmma+tma (sm_90a)", "10_wgmma_tma.cl",
      "gemm_wgmma_tma", SM90A, "tf32", TMA_F32,
      "SPLIT PROMOTE INFLIGHT STAGED ROUNDER PERSIST TSTORE SETMAXNREG", LAUNCH_WARPGROUPS_PRODUCER,
      PREPASS_TF32_PACK, true, true, 1, TRANS_A | TRANS_B | C_ANY, true },
    { "wgmma_tma", DT_16BIT, NEED_EMULATION, "emulated wgmma+tma", "10_wgmma_tma.cl",
      "gemm_wgmma_tma", EMU_WGMMA, NULL, TMA_16, "STAGED PERSIST TSTORE SETMAXNREG",
      LAUNCH_WARPGROUPS_PRODUCER, PREPASS_NONE, true, true, 8, TRANS_A | TRANS_B | C_ANY, true },
    { "wgmma_tma", DT_F32, NEED_EMULATION, "emulated wgmma+tma", "10_wgmma_tma.cl",
      "gemm_wgmma_tma", EMU_WGMMA, "tf32", TMA_F32,
      "SPLIT PROMOTE INFLIGHT STAGED ROUNDER PERSIST TSTORE SETMAXNREG", LAUNCH_WARPGROUPS_PRODUCER,
      PREPASS_TF32_PACK, true, true, 1, TRANS_A | TRANS_B | C_ANY, true },

    /* Step 11: any device; fp32 arithmetic on every element type.  B is read as stored, K x N
     * or N x K (X W^T); a transposed A (small) is packed; C is stored element by element; a
     * split of K sums itself in the same launch (cl/skinny_ksplit.h). */
    { "skinny", DT_F32, NEED_NONE, "opencl", "11_skinny.cl", "gemm_skinny", CL12, "fp32",
      SKINNY, "AL MAXNREG", LAUNCH_GROUPS, PREPASS_NONE, false, true, 4, TRANS_B | C_ANY, true },
    { "skinny", DT_16BIT, NEED_NONE, "opencl", "11_skinny.cl", "gemm_skinny", CL12, NULL,
      SKINNY, "AL MAXNREG", LAUNCH_GROUPS, PREPASS_NONE, false, true, 8, TRANS_B | C_ANY, true },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const algo_def *algos_all(size_t *count)
{
    *count = COUNT(algorithms);
    return algorithms;
}

const variant *variants_all(size_t *count)
{
    *count = COUNT(variants);
    return variants;
}

const algo_def *algo_find_n(const char *name, size_t len)
{
    for (size_t i = 0; i < COUNT(algorithms); i++)
        if (strlen(algorithms[i].desc.name) == len &&
            strncmp(algorithms[i].desc.name, name, len) == 0)
            return &algorithms[i];
    return NULL;
}

const algo_def *algo_find(const char *name) { return algo_find_n(name, strlen(name)); }

const variant *variant_choose(const device_info *dev, const algo_def *algo, clgemm_dtype dtype,
                              errbuf *e)
{
    const unsigned bit = 1u << dtype;
    bool any_type = false;
    char why[512] = "";
    for (size_t i = 0; i < COUNT(variants); i++) {
        const variant *v = &variants[i];
        if (strcmp(v->algorithm, algo->desc.name) != 0 || !(v->dtypes & bit))
            continue;
        any_type = true;
        errbuf no = { "" };
        if (hardware_has(dev, v->need, &no))
            return v;
        /* The first refusal names the best path: that is the one worth explaining. */
        if (!*why)
            snprintf(why, sizeof why, "%s", no.msg);
    }
    if (!any_type)
        err_set(e, "takes no %s data", clgemm_dtype_name(dtype));
    else
        err_set(e, "%s", why);
    return NULL;
}

bool algo_takes(const algo_def *algo, clgemm_dtype dtype)
{
    if (algo->candidates)
        return (algo->dtypes & (1u << dtype)) != 0;
    for (size_t i = 0; i < COUNT(variants); i++)
        if (strcmp(variants[i].algorithm, algo->desc.name) == 0 &&
            (variants[i].dtypes & (1u << dtype)))
            return true;
    return false;
}

/* Whether `key` is one of the space-separated words of `list` or a KEY= of it. */
static bool in_list(const char *list, const char *key)
{
    const size_t n = strlen(key);
    for (const char *p = list; p && *p;) {
        p += strspn(p, " ,");
        size_t len = strcspn(p, " ,=");
        if (len == n && strncmp(p, key, n) == 0)
            return true;
        p += strcspn(p, " ,");
    }
    return false;
}

/* Every kernel that takes a batch in one launch can be split along K (host/lib/splitk.c);
 * every kernel can run the swapped problem (SWAP, gemm_call.c: its stores go through
 * cl/epilogue.h, which stores C transposed). */
#define SPLITK_KEY "SPLITK"
#define SWAP_KEY "SWAP"

bool variant_has_key(const variant *v, const char *key)
{
    return in_list(v->defaults, key) || in_list(v->extra_keys, key) ||
           strcmp(key, SWAP_KEY) == 0 || (v->batched && strcmp(key, SPLITK_KEY) == 0);
}

void variant_keys(const variant *v, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    const char *lists[4] = { v->defaults, v->extra_keys, v->batched ? SPLITK_KEY : NULL,
                             SWAP_KEY };
    for (int l = 0; l < 4; l++)
        for (const char *p = lists[l]; p && *p && used + 1 < size;) {
            p += strspn(p, " ,");
            size_t len = strcspn(p, " ,=");
            if (len) {
                int w = snprintf(out + used, size - used, "%s%.*s", used ? " " : "", (int)len, p);
                used += w > 0 ? (size_t)w : 0;
            }
            p += strcspn(p, " ,");
        }
}

bool algo_has_key(const algo_def *algo, const char *key)
{
    for (size_t i = 0; i < COUNT(variants); i++)
        if (strcmp(variants[i].algorithm, algo->desc.name) == 0 &&
            variant_has_key(&variants[i], key))
            return true;
    if (algo->candidates)
        for (const char *c = algo->candidates; *c;) {
            size_t n = strcspn(c, ": ");
            const algo_def *step = algo_find_n(c, n);
            if (step && algo_has_key(step, key))
                return true;
            c += strcspn(c, " ");
            c += strspn(c, " ");
        }
    return false;
}
