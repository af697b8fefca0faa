#include "algos.h"

#include <string.h>

static const algo_def registry[] = {
    { { "naive", "one work-item per C element, neighbours walk rows (uncoalesced)",
        "BM=16 BN=16 TM=1 TN=1", 1, "fp32" },
      "01_naive.cl", "gemm_naive", true, false },
    { { "coalescing", "neighbouring work-items walk columns: coalesced B and C",
        "BM=8 BN=32 TM=1 TN=1", 1, "fp32" },
      "02_coalescing.cl", "gemm_coalescing", false, false },
    { { "tiled", "A and B tiles staged in local memory and reused BK times",
        "BM=32 BN=32 BK=32 TM=1 TN=1", 1, "fp32" },
      "03_tiled.cl", "gemm_tiled", false, false },
    { { "tiled_register", "1-D register tile: TM results per work-item",
        "BM=64 BN=64 BK=8 TM=8 TN=1", 1, "fp32" },
      "04_tiled_register.cl", "gemm_tiled_register", false, false },
    { { "block_tiled", "2-D TMxTN register tile built from outer products",
        "BM=128 BN=128 BK=8 TM=8 TN=8", 1, "fp32" },
      "05_block_tiled.cl", "gemm_block_tiled", false, false },
    { { "block_tiled_vectorized", "float4 loads and stores, A transposed in local memory",
        "BM=128 BN=128 BK=16 TM=8 TN=8 VEC=4", 4, "fp32" },
      "06_block_tiled_vectorized.cl", "gemm_block_tiled_vectorized", false, false },
    { { "warp_tiled", "warp tile between work-group and thread tiles, double-buffered local memory",
        "BM=128 BN=128 BK=8 TM=8 TN=8 WM=128 WN=16 VEC=4 CLAMP=0", 4, "fp32" },
      "07_warp_tiled.cl", "gemm_warp_tiled", false, false },
    { { "tensor_core", "matrix hardware: mma.sync TF32 on NVIDIA, DPAS on Intel, MFMA on AMD",
        "BM=128 BN=128 BK=16 WM=64 WN=32 TM=16 TN=4", 4, "tf32" },
      "08_tensor_core.cl", "gemm_tensor_core", false, true },
    { { "tensor_core_tf32x3", "tensor cores at fp32 accuracy: hi/lo TF32 split, three products",
        "BM=128 BN=128 BK=16 WM=64 WN=32 TM=16 TN=4 SPLIT=1", 4, "tf32x3" },
      "08_tensor_core.cl", "gemm_tensor_core", false, true },
    { { "wgmma", "Hopper warpgroup MMA: wgmma TF32 on operands in local memory (sm_90a)",
        "BM=64 BN=256 BK=8 WGN=256 STAGES=4 WAIT=1 ROUND=1 TM=8 TN=16", 4, "tf32" },
      "09_wgmma.cl", "gemm_wgmma", false, true },
    /* fp32 data: TF32 as C^T = B^T A^T (B^T from registers), two consumers on 128 x 128 with
     * two slices in flight, BK 32, six slots (230 / 230 TFLOP/s on the H100 at 4096^3 /
     * 8192^3; within 48 KiB, BK 8 and five slots: 185 / 179); 16-bit data: backend.c's
     * kernels16 row (10_wgmma_tma.cl). */
    { { "wgmma_tma", "Hopper: TMA copies and mbarriers feed wgmma, one producer warp",
        "BM=128 BN=128 BK=32 STAGES=6 INFLIGHT=2 THREADS=288 GM=16 TMA=1 TM=1 TN=1", 4, "tf32" },
      "10_wgmma_tma_tf32.cl", "gemm_wgmma_tma_tf32", false, true },
    /* fp32 data through a pre-pass that writes B^T (and with PACKA=1 A) rounded to tf32, so
     * that both operands reach wgmma by TMA as in the 16-bit kernel (cl/10_wgmma_tma.cl,
     * TF32=1); the timing includes the pre-pass.  Two consumers on 128 x 256, four 32-deep
     * slots (128-byte rows, 192 KiB): 334 / 362 TFLOP/s on the H100 at 4096^3 / 8192^3
     * (kernel alone 383 / 378).  Within 48 KiB: 128 x 128, two 16-deep slots, 201 / 216. */
    { { "wgmma_tma_packed", "Hopper: B^T packed by a pre-pass, both TF32 operands by TMA",
        "BM=128 BN=256 BK=32 WGN=256 STAGES=4 THREADS=288 GM=16 TMA=1 TF32=1 TM=1 TN=1", 4, "tf32" },
      "10_wgmma_tma.cl", "gemm_wgmma_tma", false, true },
    /* The same at fp32 accuracy: the pre-pass writes hi = tf32(x) and lo = tf32(x - hi) of A and
     * B^T, a slot holds the four boxes, three wgmmas per k8 step, chains of 2 slices (64 k)
     * promoted into fp32 sums: 111 / 112 TFLOP/s at 2.8e-7 / 2.9e-7 (warp_tiled's fp32 error
     * 1.9e-7 / 2.2e-7). */
    { { "wgmma_tma_packed_tf32x3", "Hopper: packed hi/lo halves, three TF32 wgmmas per step",
        "BM=128 BN=128 BK=32 WGN=128 STAGES=3 THREADS=288 GM=16 TMA=1 TF32=1 SPLIT=1 PROMOTE=2 TM=1 TN=1", 4, "tf32x3" },
      "10_wgmma_tma.cl", "gemm_wgmma_tma", false, true },
    /* The same kernel with SPLIT=1: A's box split into tf32 and residual in local memory,
     * B^T's fragments in registers, each slice's products promoted into fp32 sums. */
    { { "wgmma_tma_tf32x3", "Hopper: wgmma_tma at fp32 accuracy: hi/lo TF32 split, three wgmmas",
        "BM=128 BN=64 BK=32 STAGES=4 THREADS=160 GM=16 TMA=1 SPLIT=1 PROMOTE=2 TM=1 TN=1", 4, "tf32x3" },
      "10_wgmma_tma_tf32.cl", "gemm_wgmma_tma_tf32", false, true },
};

const algo_def *algos_all(size_t *count)
{
    *count = sizeof registry / sizeof registry[0];
    return registry;
}

const algo_def *algo_find(const char *name)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (strcmp(registry[i].desc.name, name) == 0)
            return &registry[i];
    return NULL;
}
