#include "device.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl_ext.h>

/* Device queries are a table, not a hundred calls: each row copies one value into a field. */
enum query_kind { Q_STRING, Q_SCALAR };
static const struct {
    cl_device_info param;
    enum query_kind kind;
    size_t offset, size;
} device_queries[] = {
#define STR(p, f) { p, Q_STRING, offsetof(device_info, f), sizeof(((device_info *)0)->f) }
#define VAL(p, f) { p, Q_SCALAR, offsetof(device_info, f), sizeof(((device_info *)0)->f) }
    STR(CL_DEVICE_NAME, name),
    STR(CL_DEVICE_VENDOR, vendor),
    STR(CL_DRIVER_VERSION, driver),
    STR(CL_DEVICE_VERSION, version),
    VAL(CL_DEVICE_TYPE, type),
    VAL(CL_DEVICE_MAX_COMPUTE_UNITS, compute_units),
    VAL(CL_DEVICE_GLOBAL_MEM_SIZE, global_mem),
    VAL(CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc),
    VAL(CL_DEVICE_LOCAL_MEM_SIZE, local_mem),
    VAL(CL_DEVICE_MAX_WORK_GROUP_SIZE, max_work_group),
#undef STR
#undef VAL
};

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t lead = strspn(s, " \t");
    memmove(s, s + lead, n - lead + 1);
}

static int describe(device_info *d, errbuf *e)
{
    for (size_t i = 0; i < sizeof device_queries / sizeof device_queries[0]; i++) {
        char *field = (char *)d + device_queries[i].offset;
        size_t size = device_queries[i].size;
        cl_int st = clGetDeviceInfo(d->id, device_queries[i].param, size, field, NULL);
        if (device_queries[i].kind == Q_STRING) {
            /* A name longer than our field is cut rather than refused. */
            if (st == CL_INVALID_VALUE) {
                size_t need = 0;
                clGetDeviceInfo(d->id, device_queries[i].param, 0, NULL, &need);
                char *tmp = malloc(need ? need : 1);
                if (!tmp) {
                    err_set(e, "out of host memory describing a device");
                    return -1;
                }
                st = clGetDeviceInfo(d->id, device_queries[i].param, need, tmp, NULL);
                snprintf(field, size, "%s", tmp);
                free(tmp);
            }
            field[size - 1] = '\0';
            trim(field);
        }
        if (st != CL_SUCCESS) {
            err_set(e, "clGetDeviceInfo(0x%x) failed: %s", (unsigned)device_queries[i].param,
                    cl_error_name(st));
            return -1;
        }
    }
    size_t ext_size = 0;
    CL_TRY(e, clGetDeviceInfo(d->id, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_size));
    d->extensions = calloc(ext_size + 1, 1);
    if (!d->extensions) {
        err_set(e, "out of host memory describing a device");
        return -1;
    }
    CL_TRY(e, clGetDeviceInfo(d->id, CL_DEVICE_EXTENSIONS, ext_size, d->extensions, NULL));

    d->nv_cc_major = d->nv_cc_minor = -1;
    if (device_has_extension(d, "cl_nv_device_attribute_query")) {
        cl_uint major = 0, minor = 0;
        if (clGetDeviceInfo(d->id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major,
                            NULL) == CL_SUCCESS &&
            clGetDeviceInfo(d->id, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor,
                            NULL) == CL_SUCCESS) {
            d->nv_cc_major = (int)major;
            d->nv_cc_minor = (int)minor;
        }
    }
    return 0;
fail:
    return -1;
}

int devices_enumerate(device_list *out, errbuf *e)
{
    cl_platform_id *platforms = NULL;
    cl_device_id *ids = NULL;
    out->items = NULL;
    out->count = 0;

    cl_uint nplat = 0;
    cl_int st = clGetPlatformIDs(0, NULL, &nplat);
    if (st == -1001 /* CL_PLATFORM_NOT_FOUND_KHR: the ICD loader found no driver */ || nplat == 0) {
        err_set(e, "no OpenCL platform found (is an ICD such as pocl-opencl-icd installed?)");
        return -1;
    }
    CL_TRY(e, st);
    platforms = calloc(nplat, sizeof *platforms);
    if (!platforms)
        goto oom;
    CL_TRY(e, clGetPlatformIDs(nplat, platforms, NULL));

    for (cl_uint p = 0; p < nplat; p++) {
        char pname[128] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        pname[sizeof pname - 1] = '\0';
        trim(pname);
        cl_uint ndev = 0;
        /* A platform without devices answers CL_DEVICE_NOT_FOUND: skip it, it is not fatal. */
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndev) != CL_SUCCESS ||
            ndev == 0)
            continue;
        ids = calloc(ndev, sizeof *ids);
        device_info *grown = realloc(out->items, (out->count + ndev) * sizeof *grown);
        if (!ids || !grown)
            goto oom;
        out->items = grown;
        CL_TRY(e, clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, ndev, ids, NULL));
        for (cl_uint i = 0; i < ndev; i++) {
            device_info *d = &out->items[out->count];
            memset(d, 0, sizeof *d);
            d->platform = platforms[p];
            d->id = ids[i];
            d->platform_index = p;
            d->device_index = i;
            snprintf(d->platform_name, sizeof d->platform_name, "%s", pname);
            out->count++;
            if (describe(d, e) != 0)
                goto fail;
        }
        free(ids);
        ids = NULL;
    }
    free(platforms);
    if (out->count == 0) {
        err_set(e, "no OpenCL device found on %u platform(s)", nplat);
        devices_free(out);
        return -1;
    }
    return 0;
oom:
    err_set(e, "out of host memory enumerating devices");
fail:
    free(ids);
    free(platforms);
    devices_free(out);
    return -1;
}

void devices_free(device_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->items[i].extensions);
    free(list->items);
    list->items = NULL;
    list->count = 0;
}

cl_ulong device_local_mem_usable(const device_info *d)
{
    return d->nv_cc_major == 9 ? (cl_ulong)232448 : d->local_mem;
}

bool device_has_extension(const device_info *d, const char *ext)
{
    size_t n = strlen(ext);
    for (const char *s = d->extensions; s && (s = strstr(s, ext)) != NULL; s += n) {
        bool starts = s == d->extensions || s[-1] == ' ';
        bool ends = s[n] == '\0' || s[n] == ' ';
        if (starts && ends)
            return true;
    }
    return false;
}

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return n == 0;
}

/* Parses a whole string as a non-negative decimal number; false on anything else. */
static bool parse_index(const char *s, size_t len, unsigned long *out)
{
    if (len == 0 || len > 9)
        return false;
    unsigned long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (unsigned long)(s[i] - '0');
    }
    *out = v;
    return true;
}

int devices_select(const device_list *list, const char *spec, size_t *picked, errbuf *e)
{
    if (list->count == 0) {
        err_set(e, "no OpenCL device to select from");
        return -1;
    }
    if (!spec || !*spec) {
        for (size_t i = 0; i < list->count; i++)
            if (list->items[i].type & CL_DEVICE_TYPE_GPU) {
                picked[0] = i;
                return 1;
            }
        picked[0] = 0;
        return 1;
    }
    if (strcmp(spec, "all") == 0) {
        for (size_t i = 0; i < list->count; i++)
            picked[i] = i;
        return (int)list->count;
    }
    const char *colon = strchr(spec, ':');
    unsigned long p, d;
    if (colon && parse_index(spec, (size_t)(colon - spec), &p) &&
        parse_index(colon + 1, strlen(colon + 1), &d)) {
        for (size_t i = 0; i < list->count; i++)
            if (list->items[i].platform_index == p && list->items[i].device_index == d) {
                picked[0] = i;
                return 1;
            }
        err_set(e, "no device %lu:%lu (see --list-devices)", p, d);
        return -1;
    }
    if (parse_index(spec, strlen(spec), &d)) {
        if (d < list->count) {
            picked[0] = d;
            return 1;
        }
        err_set(e, "no device %lu: there are %zu (see --list-devices)", d, list->count);
        return -1;
    }
    for (size_t i = 0; i < list->count; i++) {
        const device_info *dev = &list->items[i];
        /* The version string is searched too: PoCL names itself only there ("OpenCL 3.0
         * PoCL ..."), and `--device pocl` is what users type. */
        if (contains_nocase(dev->platform_name, spec) || contains_nocase(dev->name, spec) ||
            contains_nocase(dev->vendor, spec) || contains_nocase(dev->version, spec)) {
            picked[0] = i;
            return 1;
        }
    }
    err_set(e, "no device matches '%s' (see --list-devices)", spec);
    return -1;
}
