#include "clerr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define NAME(code) { code, #code }

static const struct {
    cl_int code;
    const char *name;
} names[] = {
    NAME(CL_SUCCESS),
    NAME(CL_DEVICE_NOT_FOUND),
    NAME(CL_DEVICE_NOT_AVAILABLE),
    NAME(CL_COMPILER_NOT_AVAILABLE),
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    NAME(CL_OUT_OF_RESOURCES),
    NAME(CL_OUT_OF_HOST_MEMORY),
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE),
    NAME(CL_MEM_COPY_OVERLAP),
    NAME(CL_IMAGE_FORMAT_MISMATCH),
    NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED),
    NAME(CL_BUILD_PROGRAM_FAILURE),
    NAME(CL_MAP_FAILURE),
    NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET),
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    NAME(CL_COMPILE_PROGRAM_FAILURE),
    NAME(CL_LINKER_NOT_AVAILABLE),
    NAME(CL_LINK_PROGRAM_FAILURE),
    NAME(CL_DEVICE_PARTITION_FAILED),
    NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
    NAME(CL_INVALID_VALUE),
    NAME(CL_INVALID_DEVICE_TYPE),
    NAME(CL_INVALID_PLATFORM),
    NAME(CL_INVALID_DEVICE),
    NAME(CL_INVALID_CONTEXT),
    NAME(CL_INVALID_QUEUE_PROPERTIES),
    NAME(CL_INVALID_COMMAND_QUEUE),
    NAME(CL_INVALID_HOST_PTR),
    NAME(CL_INVALID_MEM_OBJECT),
    NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
    NAME(CL_INVALID_IMAGE_SIZE),
    NAME(CL_INVALID_SAMPLER),
    NAME(CL_INVALID_BINARY),
    NAME(CL_INVALID_BUILD_OPTIONS),
    NAME(CL_INVALID_PROGRAM),
    NAME(CL_INVALID_PROGRAM_EXECUTABLE),
    NAME(CL_INVALID_KERNEL_NAME),
    NAME(CL_INVALID_KERNEL_DEFINITION),
    NAME(CL_INVALID_KERNEL),
    NAME(CL_INVALID_ARG_INDEX),
    NAME(CL_INVALID_ARG_VALUE),
    NAME(CL_INVALID_ARG_SIZE),
    NAME(CL_INVALID_KERNEL_ARGS),
    NAME(CL_INVALID_WORK_DIMENSION),
    NAME(CL_INVALID_WORK_GROUP_SIZE),
    NAME(CL_INVALID_WORK_ITEM_SIZE),
    NAME(CL_INVALID_GLOBAL_OFFSET),
    NAME(CL_INVALID_EVENT_WAIT_LIST),
    NAME(CL_INVALID_EVENT),
    NAME(CL_INVALID_OPERATION),
    NAME(CL_INVALID_GL_OBJECT),
    NAME(CL_INVALID_BUFFER_SIZE),
    NAME(CL_INVALID_MIP_LEVEL),
    NAME(CL_INVALID_GLOBAL_WORK_SIZE),
    NAME(CL_INVALID_PROPERTY),
    NAME(CL_INVALID_IMAGE_DESCRIPTOR),
    NAME(CL_INVALID_COMPILER_OPTIONS),
    NAME(CL_INVALID_LINKER_OPTIONS),
    NAME(CL_INVALID_DEVICE_PARTITION_COUNT),
    { -1001, "CL_PLATFORM_NOT_FOUND_KHR" },
};

const char *cl_error_name(cl_int err)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == err)
            return names[i].name;
    static _Thread_local char unknown[40];
    snprintf(unknown, sizeof unknown, "CL_UNKNOWN_ERROR(%d)", (int)err);
    return unknown;
}

void err_set(errbuf *e, const char *fmt, ...)
{
    if (!e)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    /* One line, whatever the user typed into the text being quoted. */
    for (char *p = e->msg; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = '?';
}
