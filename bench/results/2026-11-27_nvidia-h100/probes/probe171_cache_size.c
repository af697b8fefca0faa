#define CL_TARGET_OPENCL_VERSION 300
#include <stdio.h>
#include "../../../probes/nvidia_gpu.h" /* bench/probes/ */
int main(void)
{
    cl_device_id d = nvidia_gpu();
    cl_ulong size = 0; cl_uint line = 0; cl_device_mem_cache_type t = 0;
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof size, &size, NULL);
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof line, &line, NULL);
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof t, &t, NULL);
    printf("global mem cache: %llu bytes, line %u, type %u\n", (unsigned long long)size, line, (unsigned)t);
    return 0;
}
