/* Enumerate OpenCL devices, describe them, and pick the ones a --device spec names. */
#ifndef CLGEMM_DEVICE_H
#define CLGEMM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include <CL/cl.h>

#include "clerr.h"

typedef struct device_info {
    cl_platform_id platform;
    cl_device_id id;
    unsigned platform_index, device_index; /* the "P:D" spec of this device */
    char platform_name[128];
    char name[128];
    char vendor[128];
    char driver[64];
    char version[128];
    cl_device_type type;
    cl_uint compute_units;
    cl_ulong global_mem, max_alloc, local_mem;
    size_t max_work_group;
    int nv_cc_major, nv_cc_minor; /* NVIDIA compute capability, -1 elsewhere */
    char *extensions;             /* owned */
} device_info;

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
const char *device_type_name(cl_device_type type);

#endif
