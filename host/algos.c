#include "algos.h"

#include <string.h>

static const algo_def registry[] = {
    { "naive", ALGO_KERNEL, "one work-item per C element, neighbours walk rows (uncoalesced)",
      "01_naive.cl", "gemm_naive", "BM=16 BN=16 TM=1 TN=1", true, 1 },
    { "coalescing", ALGO_KERNEL, "neighbouring work-items walk columns: coalesced B and C",
      "02_coalescing.cl", "gemm_coalescing", "BM=8 BN=32 TM=1 TN=1", false, 1 },
    { "tiled", ALGO_KERNEL, "A and B tiles staged in local memory and reused BK times",
      "03_tiled.cl", "gemm_tiled", "BM=32 BN=32 BK=32 TM=1 TN=1", false, 1 },
    { "tiled_register", ALGO_KERNEL, "1-D register tile: TM results per work-item",
      "04_tiled_register.cl", "gemm_tiled_register", "BM=64 BN=64 BK=8 TM=8 TN=1", false, 1 },
    { "block_tiled", ALGO_KERNEL, "2-D TMxTN register tile built from outer products",
      "05_block_tiled.cl", "gemm_block_tiled", "BM=128 BN=128 BK=8 TM=8 TN=8", false, 1 },
    { "block_tiled_vectorized", ALGO_KERNEL,
      "float4 loads and stores, A transposed in local memory",
      "06_block_tiled_vectorized.cl", "gemm_block_tiled_vectorized",
      "BM=128 BN=128 BK=16 TM=8 TN=8 VEC=4", false, 4 },
    { "warp_tiled", ALGO_KERNEL,
      "warp tile between work-group and thread tiles, double-buffered local memory",
      "07_warp_tiled.cl", "gemm_warp_tiled", "BM=128 BN=128 BK=16 TM=8 TN=8 VEC=4", false, 4 },
    { "clblast", ALGO_CLBLAST, "CLBlast SGEMM with its default parameters (the baseline)",
      NULL, NULL, "", false, 1 },
};

const algo_def *algos_all(size_t *count)
{
    *count = sizeof registry / sizeof registry[0];
    return registry;
}

const algo_def *algo_find(const char *name)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (strcmp(registry[i].name, name) == 0)
            return &registry[i];
    return NULL;
}
