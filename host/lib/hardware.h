/* Whether a device has what a registry row needs (registry.h's hw_need), and why not. */
#ifndef CLGEMM_HARDWARE_H
#define CLGEMM_HARDWARE_H

#include <stdbool.h>

#include "clerr.h"
#include "device.h"
#include "registry.h"

/* CLGEMM_EMULATE_MATRIX set to anything but "" or "0". */
bool emulation_requested(void);

/* True when the device has it; else false with e saying what is missing. */
bool hardware_has(const device_info *dev, hw_need need, errbuf *e);

#endif
