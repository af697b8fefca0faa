/* Enumerate OpenCL devices, describe them, and pick the ones a --device spec names. */
#ifndef CLGEMM_DEVICE_H
#define CLGEMM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include <CL/cl.h>

#include "clerr.h"
#include "clgemm.h"

/* The public description (clgemm.h) is the internal one. */
typedef clgemm_device_desc device_info;

typedef struct device_list {
    device_info *items;
    size_t count;
} device_list;

/* All devices of all platforms.  No platform at all is an error (nothing to run on). */
int devices_enumerate(device_list *out, errbuf *e);
void devices_free(device_list *list);

/* Resolve a --device spec against a list (pure: no OpenCL calls, so it is unit-tested).
 *   NULL or ""     the first GPU, else the first device
 *   "all"          every device
 *   "P:D"          platform P, device D (indices as --list-devices prints them)
 *   "N"            the N-th device in --list-devices order
 *   anything else  the first device whose platform, name, vendor or version string contains
 *                 it, case-insensitive
 * Writes indices into picked[] (capacity list->count) and returns how many, or -1 with e set. */
int devices_select(const device_list *list, const char *spec, size_t *picked, errbuf *e);

bool device_has_extension(const device_info *d, const char *ext);

/* The local memory a work-group can really declare, in bytes.  NVIDIA's OpenCL reports 48 KiB
 * (CUDA's limit for a kernel that has not opted in to more), yet builds and runs kernels that
 * declare more, up to the per-block maximum that ptxas enforces: 227 KiB on compute
 * capability 9.x, measured on an H100 with driver 580 (200 KiB declared in OpenCL C ran
 * correctly over 264 groups; 227 KiB + 4 bytes was refused by ptxas;
 * bench/probes/big_local.c).  Any other device: what it reports. */
cl_ulong device_local_mem_usable(const device_info *d);

#endif
