#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "kernel_sources.h"
#include "program_internal.h"
#include "ptx_maxnreg.h"

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)size + 1))) {
            if (fread(text, 1, (size_t)size, f) == (size_t)size) {
                text[size] = '\0';
            } else {
                free(text);
                text = NULL;
            }
        }
    }
    fclose(f);
    return text;
}

static char *load_raw(const char *file, errbuf *e)
{
    const char *dir = getenv("CLGEMM_KERNEL_DIR");
    if (dir && *dir) {
        size_t n = strlen(dir) + strlen(file) + 2;
        char *path = malloc(n);
        if (!path) {
            err_set(e, "out of host memory");
            return NULL;
        }
        snprintf(path, n, "%s/%s", dir, file);
        char *text = read_file(path);
        if (!text)
            err_set(e, "cannot read kernel file %s (CLGEMM_KERNEL_DIR)", path);
        free(path);
        return text;
    }
    for (const struct embedded_kernel *k = embedded_kernels; k->name; k++)
        if (strcmp(k->name, file) == 0) {
            char *text = strdup(k->source);
            if (!text)
                err_set(e, "out of host memory");
            return text;
        }
    err_set(e, "kernel file %s is not embedded in this build", file);
    return NULL;
}

/* Appends n bytes to a growing buffer; false when memory runs out. */
static int append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t want = (*len + n + 1) * 2;
        char *grown = realloc(*buf, want);
        if (!grown)
            return 0;
        *buf = grown;
        *cap = want;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
    return 1;
}

/* Include files are expanded by us because the OpenCL compiler cannot see embedded files.
 * A header guard in each header keeps repeated includes harmless; depth bounds cycles. */
static char *expand(const char *file, int depth, errbuf *e)
{
    if (depth > 8) {
        err_set(e, "#include nesting too deep at %s", file);
        return NULL;
    }
    char *raw = load_raw(file, e);
    if (!raw)
        return NULL;
    char *out = NULL;
    size_t len = 0, cap = 0;
    const char *line = raw;
    while (*line) {
        const char *eol = strchr(line, '\n');
        size_t n = eol ? (size_t)(eol - line + 1) : strlen(line);
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        const char *q;
        if (strncmp(p, "#include \"", 10) == 0 && (q = memchr(p + 10, '"', n - 10))) {
            char name[128];
            size_t nlen = (size_t)(q - (p + 10));
            if (nlen >= sizeof name) {
                err_set(e, "include name too long in %s", file);
                goto fail;
            }
            memcpy(name, p + 10, nlen);
            name[nlen] = '\0';
            char *inner = expand(name, depth + 1, e);
            if (!inner)
                goto fail;
            int ok = append(&out, &len, &cap, inner, strlen(inner)) &&
                     append(&out, &len, &cap, "\n", 1);
            free(inner);
            if (!ok)
                goto oom;
        } else if (!append(&out, &len, &cap, line, n)) {
            goto oom;
        }
        line += n;
    }
    free(raw);
    if (!out)
        out = strdup("");
    return out;
oom:
    err_set(e, "out of host memory expanding %s", file);
fail:
    free(raw);
    free(out);
    return NULL;
}

char *kernel_source_load(const char *file, errbuf *e) { return expand(file, 0, e); }

char *program_build_log(cl_program prog, cl_device_id dev)
{
    size_t size = 0;
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS)
        return strdup("(no build log available)");
    char *log = calloc(size + 1, 1);
    if (log && clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL) !=
                   CL_SUCCESS)
        log[0] = '\0';
    return log;
}

/* Everything that changes the compiled code is in the key: the driver and device, the
 * options, and the source itself (by hash; the key is stored whole in the entry). */
static char *cache_key(const device_info *dev, const char *source, const char *options,
                       bool retarget)
{
    size_t n = strlen(options) + 1024;
    char *key = malloc(n);
    if (key)
        snprintf(key, n,
                 "clgemm-program-v1\nplatform=%s\ndevice=%s\nvendor=%s\ndriver=%s\n"
                 "version=%s\noptions=%s\nsource=%016llx/%zu\n%s",
                 dev->platform_name, dev->name, dev->vendor, dev->driver, dev->version, options,
                 (unsigned long long)fnv1a64(source, strlen(source), FNV1A64_SEED),
                 strlen(source),
                 /* the post-pass made the binary too; bump it when its rules change (the
                  * register cap's value is in the options) */
                 retarget ? "post=ptx-sm90a-v1\n" : "");
    return key;
}

static cl_program from_cache(cl_context ctx, const device_info *dev, const char *key,
                             const char *options)
{
    size_t len = 0;
    unsigned char *binary = cache_load(key, &len);
    if (!binary)
        return NULL;
    cl_int st, bin_st;
    const unsigned char *bins[1] = { binary };
    cl_program prog =
        clCreateProgramWithBinary(ctx, 1, &dev->id, &len, bins, &bin_st, &st);
    free(binary);
    if (prog && (st != CL_SUCCESS || bin_st != CL_SUCCESS ||
                 clBuildProgram(prog, 1, &dev->id, options, NULL, NULL) != CL_SUCCESS)) {
        /* A binary the driver no longer takes (say, after an update it did not announce in
         * its version string) is rebuilt from source and overwritten. */
        clReleaseProgram(prog);
        prog = NULL;
    }
    return prog;
}

static void to_cache(cl_program prog, const char *key)
{
    size_t len = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS ||
        len == 0)
        return;
    unsigned char *binary = malloc(len);
    unsigned char *bins[1] = { binary };
    if (binary && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) ==
                      CL_SUCCESS)
        cache_store(key, binary, len);
    free(binary);
}

/* The first place at or after `from` where flag (len characters) starts a word of options,
 * or NULL. */
static const char *option_at(const char *options, const char *from, const char *flag,
                             size_t len)
{
    for (const char *p = from; (p = strstr(p, flag)); p += len)
        if (p == options || p[-1] == ' ' || p[-1] == '\t')
            return p;
    return NULL;
}

bool program_wants_sm90a(const char *options)
{
    static const char flag[] = PROGRAM_SM90A_OPTION;
    const size_t len = sizeof flag - 1;
    for (const char *p = options; (p = option_at(options, p, flag, len)); p += len)
        if (p[len] == '\0' || p[len] == ' ' || p[len] == '\t')
            return true;
    return false;
}

int program_ptx_maxnreg(const char *options)
{
    static const char flag[] = PROGRAM_MAXNREG_OPTION;
    const char *p = option_at(options, options, flag, sizeof flag - 1);
    if (!p)
        return 0;
    char *end;
    const long n = strtol(p + sizeof flag - 1, &end, 10);
    const bool whole =
        end != p + sizeof flag - 1 && (*end == '\0' || *end == ' ' || *end == '\t');
    return whole && n >= PTX_MAXNREG_MIN && n <= PTX_MAXNREG_MAX ? (int)n : -1;
}

void program_show_log(cl_program prog, cl_device_id dev, const char *what, const char *options)
{
    const char *show = getenv("CLGEMM_SHOW_BUILD_LOG");
    if (show && *show && strcmp(show, "0") != 0) {
        char *text = program_build_log(prog, dev);
        fprintf(stderr, "clgemm: build log%s (%s):\n%s\n", what, options, text ? text : "");
        free(text);
    }
}

/* The line at p, at most 200 characters of it. */
static void line_at(const char *p, char *out, size_t size)
{
    const size_t n = strcspn(p, "\r\n");
    snprintf(out, size, "%.*s", (int)(n > 200 ? 200 : n), p);
}

/* The first line of a build log that says something, for a one-line reason. */
void program_first_words(const char *log, char *out, size_t size)
{
    const char *p = log ? log : "";
    while (*p == '\n' || *p == '\r' || *p == ' ')
        p++;
    line_at(*p ? p : "(empty build log)", out, size);
}

/* A build's reason in one line: the compiler's first error (a kernel's #error says which
 * parameter), else the log's first words. */
static void first_error(const char *log, char *out, size_t size)
{
    const char *p = log ? strstr(log, "error: ") : NULL;
    if (!p) {
        program_first_words(log, out, size);
        return;
    }
    p += strlen("error: ");
    /* an #error's text starts at its quote, past any file:line: prefix */
    const char *quote = memchr(p, '"', strcspn(p, "\r\n"));
    line_at(quote ? quote : p, out, size);
}

static cl_program build_with(cl_context ctx, const device_info *dev, const char *source,
                             const char *options, char **log, bool *cached, bool *unsupported,
                             errbuf *e)
{
    *log = NULL;
    *cached = false;
    *unsupported = false;
    const bool retarget = program_wants_sm90a(options);
    const int maxnreg = program_ptx_maxnreg(options);
    if (maxnreg < 0) {
        err_set(e, "MAXNREG: a register cap from %d to %d (PTX's .maxnreg)", PTX_MAXNREG_MIN,
                PTX_MAXNREG_MAX);
        return NULL;
    }
    if (maxnreg > 0 && dev->nv_cc_major < 0) {
        /* Only NVIDIA's binaries are PTX text that a directive can be written into. */
        *unsupported = true;
        err_set(e, "MAXNREG=%d caps registers through NVIDIA's PTX (.maxnreg); %s is not an "
                   "NVIDIA device",
                maxnreg, dev->name);
        return NULL;
    }
    if (retarget && dev->nv_cc_major != 9) {
        /* wgmma and friends exist only on sm_90a; nothing else can run what this builds. */
        *unsupported = true;
        err_set(e, "the sm_90a post-pass needs an NVIDIA compute capability 9.x device (this is "
                   "%s%s)",
                dev->name, dev->nv_cc_major < 0 ? ", not NVIDIA" : "");
        return NULL;
    }
    char *key = cache_dir() ? cache_key(dev, source, options, retarget) : NULL;
    cl_program prog = key ? from_cache(ctx, dev, key, options) : NULL;
    if (prog) {
        *cached = true;
        free(key);
        return prog;
    }
    cl_int st;
    prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &st);
    if (!prog) {
        err_set(e, "clCreateProgramWithSource failed: %s", cl_error_name(st));
        free(key);
        return NULL;
    }
    st = clBuildProgram(prog, 1, &dev->id, options, NULL, NULL);
    if (st != CL_SUCCESS) {
        *log = program_build_log(prog, dev->id);
        char reason[256];
        first_error(*log, reason, sizeof reason);
        err_set(e, "clBuildProgram failed: %s: %s", cl_error_name(st), reason);
        clReleaseProgram(prog);
        free(key);
        return NULL;
    }
    /* For kernel work: the compiler's words on a good build (registers, spills on NVIDIA
     * with CLGEMM_BUILD_OPTIONS=-cl-nv-verbose). */
    program_show_log(prog, dev->id, "", options);
    if (retarget || maxnreg > 0) {
        cl_program final = program_ptx_postpass(ctx, dev, prog, options, retarget, maxnreg,
                                                log, unsupported, e);
        clReleaseProgram(prog);
        if (!final) {
            free(key);
            return NULL;
        }
        prog = final;
    }
    /* What is stored is the final binary, so a later run skips both builds. */
    if (key)
        to_cache(prog, key);
    free(key);
    return prog;
}

cl_program program_build(cl_context ctx, const device_info *dev, const char *source,
                         const char *options, char **log, bool *cached, bool *unsupported,
                         errbuf *e)
{
    if (dev->nv_cc_major < 8)
        return build_with(ctx, dev, source, options, log, cached, unsupported, e);
    /* The device's own facts go into the options, and so into the cache key. */
    const size_t n = strlen(options) + sizeof " " PROGRAM_NV_SM80_OPTION;
    char *full = malloc(n);
    if (!full) {
        *log = NULL;
        *cached = *unsupported = false;
        err_set(e, "out of host memory");
        return NULL;
    }
    snprintf(full, n, "%s %s", options, PROGRAM_NV_SM80_OPTION);
    cl_program prog = build_with(ctx, dev, source, full, log, cached, unsupported, e);
    free(full);
    return prog;
}
