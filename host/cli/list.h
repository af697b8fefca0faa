/* clgemm --algo list: what each name runs on the chosen device, or why it cannot. */
#ifndef CLGEMM_LIST_H
#define CLGEMM_LIST_H

#include <stdbool.h>
#include <stdio.h>

#include "clgemm.h"

/* One table (or CSV rows, for scripts) per device index of clgemm_devices(); 0, or -1 when the device cannot be
 * opened (the message is on stderr). */
int list_algorithms(FILE *out, size_t device_index, clgemm_dtype dtype, bool csv);

#endif
