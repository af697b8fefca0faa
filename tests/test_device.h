/* The device a test that picks one itself runs on: the first that $CLGEMM_TEST_DEVICE names,
 * else PoCL's, as clgemm_select_devices reads a spec; *index is its place in clgemm_devices().
 * NULL after one line on stderr, which starts with `who` (the test's name). */
#ifndef CLGEMM_TESTS_TEST_DEVICE_H
#define CLGEMM_TESTS_TEST_DEVICE_H

#include <stdio.h>
#include <stdlib.h>

#include "clgemm.h"

static inline const clgemm_device_desc *test_device(const char *who, size_t *index)
{
    const char *spec = getenv("CLGEMM_TEST_DEVICE");
    if (!spec || !*spec)
        spec = "pocl";
    const clgemm_device_desc *devices;
    size_t ndevices, picked[64], npicked = 0;
    if (clgemm_devices(&devices, &ndevices) != CLGEMM_SUCCESS || ndevices > 64 ||
        clgemm_select_devices(spec, picked, &npicked) != CLGEMM_SUCCESS) {
        fprintf(stderr, "%s: %s\n", who, clgemm_last_error());
        return NULL;
    }
    *index = picked[0];
    return &devices[picked[0]];
}

#endif
