/* Unit tests of what runs where, without a device: --device spec resolution over a fake
 * list of platforms, and which variant each algorithm name picks on a described device. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "expect.h"

static device_info fake(unsigned p, unsigned d, cl_device_type type, const char *plat,
                        const char *name)
{
    device_info x;
    memset(&x, 0, sizeof x);
    x.platform_index = p;
    x.device_index = d;
    x.type = type;
    snprintf(x.platform_name, sizeof x.platform_name, "%s", plat);
    snprintf(x.name, sizeof x.name, "%s", name);
    snprintf(x.vendor, sizeof x.vendor, "%s", plat);
    return x;
}

static void test_device_select(void)
{
    device_info items[3] = {
        fake(0, 0, CL_DEVICE_TYPE_CPU, "Portable Computing Language", "pthread-cpu"),
        fake(1, 0, CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA H100 80GB HBM3"),
        fake(1, 1, CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA H200"),
    };
    snprintf(items[0].version, sizeof items[0].version, "OpenCL 3.0 PoCL HSTR: pthread");
    device_list list = { items, 3 };
    size_t picked[3];
    errbuf e = { "" };
    EXPECT(devices_select(&list, NULL, picked, &e) == 1 && picked[0] == 1); /* GPU first */
    EXPECT(devices_select(&list, "", picked, &e) == 1 && picked[0] == 1);
    EXPECT(devices_select(&list, "all", picked, &e) == 3 && picked[2] == 2);
    EXPECT(devices_select(&list, "1:1", picked, &e) == 1 && picked[0] == 2);
    EXPECT(devices_select(&list, "0:0", picked, &e) == 1 && picked[0] == 0);
    EXPECT(devices_select(&list, "2", picked, &e) == 1 && picked[0] == 2);
    EXPECT(devices_select(&list, "pocl", picked, &e) == 1 && picked[0] == 0); /* version */
    EXPECT(devices_select(&list, "portable", picked, &e) == 1 && picked[0] == 0);
    EXPECT(devices_select(&list, "h200", picked, &e) == 1 && picked[0] == 2);
    EXPECT(devices_select(&list, "NVIDIA", picked, &e) == 1 && picked[0] == 1);
    EXPECT(devices_select(&list, "3", picked, &e) == -1 && strstr(e.msg, "no device 3"));
    EXPECT(devices_select(&list, "2:0", picked, &e) == -1 && strstr(e.msg, "2:0"));
    EXPECT(devices_select(&list, "amd", picked, &e) == -1 && strstr(e.msg, "amd"));
    items[1].type = items[2].type = CL_DEVICE_TYPE_ACCELERATOR;
    EXPECT(devices_select(&list, NULL, picked, &e) == 1 && picked[0] == 0); /* no GPU */
}

/* What each name runs where (gemm_plan_describe builds nothing): hardware first, the
 * emulation only when asked for, purpose names through their candidates, 16-bit data on the
 * kernels that take it; and unknown parameter keys refused with the keys there are. */
static void test_variant_choice(void)
{
    device_info nv8 = fake(0, 0, CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA A100");
    device_info nv9 = fake(0, 1, CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA H100 80GB HBM3");
    device_info cpu = fake(1, 0, CL_DEVICE_TYPE_CPU, "Portable Computing Language", "cpu");
    nv8.nv_cc_major = 8;
    nv9.nv_cc_major = 9;
    cpu.nv_cc_major = -1;
    nv8.max_work_group = nv9.max_work_group = cpu.max_work_group = 1024;
    gemm_plan g;
    errbuf e = { "" };
    unsetenv("CLGEMM_EMULATE_MATRIX");
    EXPECT(gemm_plan_describe(&g, &nv8, algo_find("tensor_core"), CLGEMM_BF16, NULL, &e) ==
               PLAN_OK && strcmp(g.step->desc.name, "mma") == 0 &&
           strcmp(g.precision, "bf16") == 0 && strcmp(g.variant->backend, "nvidia mma.sync") == 0 &&
           g.variant->ld_multiple == 8);
    EXPECT(gemm_plan_describe(&g, &nv8, algo_find("tensor_core"), CLGEMM_F32, NULL, &e) ==
               PLAN_OK && strcmp(g.precision, "tf32") == 0);
    EXPECT(gemm_plan_describe(&g, &nv9, algo_find("wgmma"), CLGEMM_F16, NULL, &e) == PLAN_OK &&
           strcmp(g.variant->backend, "nvidia wgmma (sm_90a)") == 0 && g.local[0] == 256);
    EXPECT(gemm_plan_describe(&g, &nv8, algo_find("wgmma"), CLGEMM_F16, NULL, &e) ==
               PLAN_UNSUPPORTED && strstr(e.msg, "9.x"));
    EXPECT(gemm_plan_describe(&g, &nv9, algo_find("wgmma"), CLGEMM_F32, NULL, &e) ==
               PLAN_UNSUPPORTED && strstr(e.msg, "takes no f32 data"));
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("mma"), CLGEMM_F32, NULL, &e) ==
               PLAN_UNSUPPORTED && strstr(e.msg, "needs matrix hardware"));
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("tensor_core"), CLGEMM_F32, NULL, &e) ==
               PLAN_UNSUPPORTED && strstr(e.msg, "needs matrix hardware"));
    EXPECT(gemm_plan_describe(&g, &nv9, algo_find("tensor_core_tf32x3"), CLGEMM_F16, NULL, &e) ==
               PLAN_UNSUPPORTED && strstr(e.msg, "takes no f16 data"));
    setenv("CLGEMM_EMULATE_MATRIX", "1", 1);
    /* the emulation runs the portable lesson for a purpose name, and any step by name */
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("tensor_core"), CLGEMM_F32, NULL, &e) ==
               PLAN_OK && strcmp(g.step->desc.name, "mma") == 0 &&
           strcmp(g.variant->backend, "emulated mma.sync") == 0);
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("tensor_core_tf32x3"), CLGEMM_F32, NULL, &e) ==
               PLAN_OK && strcmp(g.precision, "tf32x3") == 0 &&
           params_get(&g.params, "SPLIT", 0) == 1);
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("wgmma_tma"), CLGEMM_F32, NULL, &e) ==
               PLAN_OK && strcmp(g.precision, "tf32") == 0 && g.pack_a &&
           g.local[0] == 2 * 128 + 32);
    /* A truncated by the tensor core: its own, wider bound */
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("wgmma_tma"), CLGEMM_F32, "PACKA=0", &e) ==
               PLAN_OK && strcmp(g.precision, "tf32t") == 0 && !g.pack_a);
    /* A rounded in registers: no pass over A, the arithmetic of the pre-pass */
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("wgmma_tma"), CLGEMM_F32, "PACKA=3", &e) ==
               PLAN_OK && strcmp(g.precision, "tf32") == 0 && !g.pack_a && g.pack_b);
    /* real hardware wins over the emulation */
    EXPECT(gemm_plan_describe(&g, &nv8, algo_find("mma"), CLGEMM_F32, NULL, &e) == PLAN_OK &&
           strcmp(g.variant->backend, "nvidia mma.sync") == 0);
    unsetenv("CLGEMM_EMULATE_MATRIX");

    /* parameter keys: exact, known to the kernel, in range */
    EXPECT(gemm_params_check(algo_find("block_tiled"), "BM=64,BN=64", &e) == 0);
    EXPECT(gemm_params_check(algo_find("block_tiled"), "bm=64", &e) == -1 &&
           strstr(e.msg, "'bm'") && strstr(e.msg, "BM=128"));
    EXPECT(gemm_params_check(algo_find("tiled"), "FOO=3", &e) == -1 && strstr(e.msg, "'FOO'"));
    EXPECT(gemm_params_check(algo_find("tiled"), "BM=70000", &e) == -1 && strstr(e.msg, "range"));
    EXPECT(gemm_params_check(algo_find("tensor_core"), "SPLIT=1", &e) == 0);
    EXPECT(gemm_plan_describe(&g, &nv8, algo_find("block_tiled"), CLGEMM_F32, "bm=64", &e) ==
               PLAN_INVALID && strstr(e.msg, "its parameters: BM BN BK TM TN"));
    EXPECT(clgemm_check_algorithm("block_tiled:bm=64") == CLGEMM_ERROR_INVALID_ARGUMENT &&
           strstr(clgemm_last_error(), "clgemm_check_algorithm") &&
           strstr(clgemm_last_error(), "'bm'"));
    EXPECT(clgemm_check_algorithm("warp_tiled:BM=64,CLAMP=1") == CLGEMM_SUCCESS);
    EXPECT(clgemm_check_algorithm("wgmma_tma_packed") == CLGEMM_ERROR_UNKNOWN_ALGORITHM);
}

int main(void)
{
    test_device_select();
    test_variant_choice();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
