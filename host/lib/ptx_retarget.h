/* The sm_90a post-pass over NVIDIA's PTX: a pure text function (no OpenCL), unit-tested.
 *
 * Why it exists: NVIDIA's OpenCL compiler emits PTX for `.target sm_90` on an H100, and the
 * Hopper-only instructions (wgmma.*, setmaxnreg) are accepted only for `sm_90a`.  So a kernel
 * that wants them is built twice (host/lib/program.c): first normally, with each Hopper-only
 * instruction written as a PTX comment that carries it, e.g. in OpenCL C
 *     asm volatile("// @sm90a wgmma.commit_group.sync.aligned;" ::: "memory");
 * (inline-asm operands are substituted inside comments too, so "{%0, %1}" arrives as
 * "{%f1, %f2}"); then the PTX of that build is read back, passed through
 * ptx_retarget_sm90a(), and built again from the rewritten text.
 *
 * The rules, exactly:
 *   Lines.  The text ends at its first NUL byte or after `len` bytes, whichever comes first.
 *     A line ends at '\n'; a '\r' right before it is part of the line ending, and both are
 *     kept as they are, so CRLF text stays CRLF.  The last line may lack a line ending.
 *   Target.  The one line whose first token (after spaces and tabs) is `.target` names the
 *     target first: `sm_90` is rewritten to `sm_90a`, `sm_90a` is kept; whatever follows the
 *     name (", texmode_independent", a comment) is kept.  Any other target, no `.target`
 *     line, or two of them, is an error.
 *   Markers.  A line whose first characters after spaces and tabs are exactly PTX_SM90A_MARKER
 *     ("// @sm90a" followed by one space or one tab) is replaced by its indentation followed
 *     by the rest of the line after that marker, verbatim, and its line ending.  The rest
 *     must not be blank (an error: a marker that carries nothing).  The marker anywhere else
 *     (after an instruction, inside another comment, "//@sm90a", "// @sm90ab") is not one,
 *     and the line is left alone.
 *   Nothing to do.  A `.target sm_90` text without a single marker line is an error: the
 *     caller asked for the post-pass because its kernel carries Hopper instructions, so none
 *     arriving means they were lost on the way.  A text already at `sm_90a` with no marker
 *     left is returned unchanged, so the pass is idempotent.
 */
#ifndef CLGEMM_PTX_RETARGET_H
#define CLGEMM_PTX_RETARGET_H

#include <stddef.h>

#include "clerr.h"

#define PTX_SM90A_MARKER "// @sm90a"

/* The rewritten text (NUL-terminated, caller frees; *out_len = its strlen), and in
 * *uncommented (may be NULL) how many marker lines became instructions.  NULL with e saying
 * why when the text breaks a rule above or memory runs out. */
char *ptx_retarget_sm90a(const char *ptx, size_t len, size_t *out_len, int *uncommented,
                         errbuf *e);

#endif
