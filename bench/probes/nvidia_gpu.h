/* What the probes that need NVIDIA's OpenCL start with: its first GPU, or NULL where no
 * platform of that name has one.  Header-only, so that each probe stays one gcc command. */
#ifndef PROBES_NVIDIA_GPU_H
#define PROBES_NVIDIA_GPU_H

#include <CL/cl.h>
#include <string.h>

static cl_device_id nvidia_gpu(void)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS)
        return NULL;
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && i < 8 && !dev; i++) {
        char name[256] = "";
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strstr(name, "NVIDIA") &&
            clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    }
    return dev;
}

#endif
