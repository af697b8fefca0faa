/* The PTX post-passes of a program build (program.h): NVIDIA's OpenCL returns a program's PTX
 * as its binary, which the host rewrites and builds again.  Split from program.c, which decides
 * when they run. */
#include "program_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "ptx_maxnreg.h"
#include "ptx_retarget.h"

/* CLGEMM_DUMP_PTX=dir keeps both texts of the post-pass, for reading on the GPU machine:
 * dir/<hash>.sm90.ptx as NVIDIA made it, dir/<hash>.sm90a.ptx as rebuilt (hash of the first). */
static void dump_ptx(const char *what, const char *text, size_t len, uint64_t hash)
{
    const char *dir = getenv("CLGEMM_DUMP_PTX");
    if (!dir || !*dir || !text)
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/%016llx.%s.ptx", dir, (unsigned long long)hash, what);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(text, 1, len, f);
        fclose(f);
        fprintf(stderr, "clgemm: wrote %s\n", path);
    }
}

/* The PTX post-passes: the sm_90a one (see ptx_retarget.h) where `retarget`, the register cap
 * (ptx_maxnreg.h) where maxnreg > 0.  NVIDIA returns the PTX of the first build as its
 * "binary"; the rewritten text is built again as a binary.  NULL with *unsupported set and the
 * reason in e (the second build's log in *log) when the device cannot take it: those are
 * facts about the device and driver, not bugs in a kernel, so the plan says "unsupported". */
cl_program program_ptx_postpass(cl_context ctx, const device_info *dev, cl_program first,
                                const char *options, bool retarget, int maxnreg, char **log,
                                bool *unsupported, errbuf *e)
{
    *unsupported = true;
    size_t len = 0;
    unsigned char *ptx = NULL;
    char *text = NULL;
    cl_program prog = NULL;
    cl_int st = clGetProgramInfo(first, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL);
    if (st != CL_SUCCESS || len == 0) {
        err_set(e, "PTX post-pass: the first build has no binary to rewrite (%s)",
                cl_error_name(st));
        return NULL;
    }
    if (!(ptx = malloc(len))) {
        err_set(e, "out of host memory");
        *unsupported = false;
        return NULL;
    }
    unsigned char *bins[1] = { ptx };
    st = clGetProgramInfo(first, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL);
    if (st != CL_SUCCESS) {
        err_set(e, "PTX post-pass: clGetProgramInfo(CL_PROGRAM_BINARIES) failed: %s",
                cl_error_name(st));
        goto done;
    }
    errbuf why = { "" };
    size_t text_len = 0;
    int rewritten = 0;
    const uint64_t hash = fnv1a64(ptx, len, FNV1A64_SEED);
    dump_ptx("sm90", (const char *)ptx, strnlen((const char *)ptx, len), hash);
    if (retarget) {
        text = ptx_retarget_sm90a((const char *)ptx, len, &text_len, &rewritten, &why);
        dump_ptx("sm90a", text, text_len, hash);
        if (!text) {
            err_set(e, "sm_90a post-pass: %s", why.msg);
            goto done;
        }
    }
    if (maxnreg > 0) { /* over the sm_90a text where there is one, else NVIDIA's own */
        const char *from = retarget ? text : (const char *)ptx;
        char *capped =
            ptx_cap_registers(from, retarget ? text_len : len, maxnreg, &text_len, NULL, &why);
        free(text);
        text = capped;
        if (!text) {
            err_set(e, "MAXNREG post-pass: %s", why.msg);
            goto done;
        }
    }
    /* Hand the text back the way NVIDIA handed it out: with the terminating NUL when its
     * binary had one (the program cache round-trips those binaries unchanged). */
    size_t give = text_len + (ptx[len - 1] == '\0' ? 1 : 0);
    const unsigned char *in[1] = { (const unsigned char *)text };
    cl_int bin_st = CL_SUCCESS;
    prog = clCreateProgramWithBinary(ctx, 1, &dev->id, &give, in, &bin_st, &st);
    if (!prog || st != CL_SUCCESS || bin_st != CL_SUCCESS) {
        err_set(e, "PTX post-pass: clCreateProgramWithBinary refused the rewritten PTX: %s",
                cl_error_name(st != CL_SUCCESS ? st : bin_st));
        if (prog)
            clReleaseProgram(prog);
        prog = NULL;
        goto done;
    }
    st = clBuildProgram(prog, 1, &dev->id, options, NULL, NULL);
    if (st != CL_SUCCESS) {
        *log = program_build_log(prog, dev->id);
        char first_line[256];
        program_first_words(*log, first_line, sizeof first_line);
        err_set(e, "the build of the rewritten PTX (%d Hopper instructions%s) failed: %s: %s",
                rewritten, maxnreg > 0 ? ", registers capped" : "", cl_error_name(st),
                first_line);
        clReleaseProgram(prog);
        prog = NULL;
        goto done;
    }
    program_show_log(prog, dev->id, " of the PTX rebuild", options);
    *unsupported = false;
done:
    free(ptx);
    free(text);
    return prog;
}
