/* A register cap written into NVIDIA's PTX: a pure text function (no OpenCL), unit-tested.
 *
 * Why it exists: NVIDIA's compiler picks a kernel's registers by its own measure, and for a
 * 256-work-item group a count above 128 leaves room for one group per SM where two would fit
 * at 128.  Step 7's pipelined N T batches come out at 159 registers that way, and the same PTX
 * capped at 128 runs with no spills (bench/results/2026-11-26_nvidia-h100/probes/probe147).
 * OpenCL C has no launch bounds, and NVIDIA's OpenCL ignores -cl-nv-maxrregcount (probe145),
 * so the cap goes where CUDA's compiler puts it: a `.maxnreg N` directive in each entry's
 * header.  The host builds the kernel once, reads its PTX back, rewrites it with this and
 * builds the text again (host/lib/program.c), as it does for the sm_90a post-pass.
 *
 * The rules, exactly:
 *   The text ends at its first NUL byte or after `len` bytes.  Lines end at '\n' (a '\r'
 *   before it stays part of the ending).  For every line whose first token (after spaces and
 *   tabs) is `.entry`, or `.visible` followed by `.entry`, the first later line whose first
 *   non-blank character is '{' (the body) is preceded by the line ".maxnreg N" plus the
 *   ending of that line.  Everything else is copied byte for byte.
 *   Errors: N outside 16..255; no entry at all; an entry without a body; an entry whose header
 *   already holds a .maxnreg (two caps would be a contradiction ptxas resolves its own way). */
#ifndef CLGEMM_PTX_MAXNREG_H
#define CLGEMM_PTX_MAXNREG_H

#include <stddef.h>

#include "clerr.h"

#define PTX_MAXNREG_MIN 16
#define PTX_MAXNREG_MAX 255

/* The rewritten text (NUL-terminated, caller frees; *out_len = its strlen), and in *entries
 * (may be NULL) how many entries were capped.  NULL with e saying why otherwise. */
char *ptx_cap_registers(const char *ptx, size_t len, int maxnreg, size_t *out_len, int *entries,
                        errbuf *e);

#endif
