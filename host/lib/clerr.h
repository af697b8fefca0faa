/* Names for OpenCL status codes and the one error-reporting convention of the host. */
#ifndef CLGEMM_CLERR_H
#define CLGEMM_CLERR_H

#include <stddef.h>
#include <string.h>

#include <CL/cl.h>

/* "CL_OUT_OF_RESOURCES" for -5, "CL_UNKNOWN_ERROR(-1234)" for codes we don't know. */
const char *cl_error_name(cl_int err);

/* Every fallible host function reports through an errbuf: one line, no trailing newline. */
typedef struct errbuf {
    char msg[512];
} errbuf;

void err_set(errbuf *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Check one OpenCL call; on failure name the call and the status, then jump to `fail`.
 * Mirrors the Khronos SDK habit: one macro, one cleanup label per function. */
#define CL_TRY(e, call)                                                              \
    do {                                                                             \
        cl_int cl_try_status_ = (call);                                              \
        if (cl_try_status_ != CL_SUCCESS) {                                          \
            err_set((e), "%.*s failed: %s", (int)strcspn(#call, "("), #call,           \
                    cl_error_name(cl_try_status_));                                  \
            goto fail;                                                               \
        }                                                                            \
    } while (0)

#endif
