/* Results to stdout: a table for people, CSV and JSON for programs. */
#ifndef CLGEMM_REPORT_H
#define CLGEMM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "clgemm.h"
#include "runner.h"

typedef struct report_entry {
    const clgemm_device_desc *dev;
    run_result result;
    float alpha, beta;
} report_entry;

/* One table per device, then (for several devices) GFLOP/s side by side.  The table leaves
 * out the rows that 'all' added and the device cannot run, naming them in one line, unless
 * show_unsupported; CSV and JSON have every row. */
void report_print(FILE *out, output_format format, const report_entry *entries, size_t n,
                  bool show_unsupported);

void report_list_devices(FILE *out, const clgemm_device_desc *list, size_t n);
const char *device_type_name(cl_device_type type);

#endif
