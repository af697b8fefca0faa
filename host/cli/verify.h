/* Checking a row: one run from the original C, read back and compared with the reference
 * (and, for large problems, with CLBlast's full result) at the precision the row ran at. */
#ifndef CLGEMM_VERIFY_H
#define CLGEMM_VERIFY_H

#include "check.h"
#include "runner.h"
#include "workspace.h"

/* Sets the row's error, tolerance and status (ROW_OK, ROW_FAIL, or ROW_ERROR with the note
 * naming the failed call).  A verified CLBlast row becomes the workspace's full comparison. */
void verify_row(session *s, const run_request *req, workspace *w, const reference *ref,
                run_row *row);

#endif
