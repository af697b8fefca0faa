#include "list.h"

#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* A CSV field: quoted, inner quotes doubled. */
static void field(FILE *out, const char *s, bool last)
{
    fputc('"', out);
    for (; s && *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputs(last ? "\"\n" : "\",", out);
}

int list_algorithms(FILE *out, size_t device_index, clgemm_dtype dtype, bool csv)
{
    clgemm_context *ctx;
    if (clgemm_open_device(device_index, &ctx) != CLGEMM_SUCCESS) {
        fprintf(stderr, "clgemm: %s\n", clgemm_last_error());
        return -1;
    }
    const clgemm_device_desc *dev = clgemm_device(ctx);
    if (csv)
        fputs("device,name,step,dtype,status,runs,file,kernel,backend,precision,params,"
              "summary,why\n", out);
    else
        fprintf(out, "device %s (%s), %s data: what each name runs here\n\n%-22s %-4s %s\n",
                dev->name, dev->platform_name, clgemm_dtype_name(dtype), "name", "step",
                "runs");
    for (size_t i = 0; i < clgemm_algorithm_count(); i++) {
        const clgemm_algorithm_desc *a = clgemm_algorithm(i);
        clgemm_build_info info;
        char step[12] = "-";
        if (a->step > 0)
            snprintf(step, sizeof step, "%d", a->step);
        /* Algorithms without a kernel for 16-bit data run on the rounded values as fp32
         * (as clgemm --dtype does). */
        const bool as_fp32 = dtype != CLGEMM_F32 && !clgemm_algorithm_has_dtype(a->name, dtype);
        const bool ok = clgemm_describe(ctx, a->name, as_fp32 ? CLGEMM_F32 : dtype, &info) ==
                        CLGEMM_SUCCESS;
        const char *why = ok ? "" : clgemm_last_error();
        /* "clgemm_describe: name: reason" -> the reason */
        for (int k = 0; k < 2 && strstr(why, ": "); k++)
            why = strstr(why, ": ") + 2;
        char precision[64];
        snprintf(precision, sizeof precision, "%s%s", ok ? info.precision : "",
                 ok && as_fp32 ? " on the rounded values" : "");
        if (csv) {
            const char *fields[] = { dev->name, a->name, step, clgemm_dtype_name(dtype),
                                     ok ? "ok" : "unsupported", ok ? info.runs : "",
                                     ok ? info.file : "", ok ? info.kernel : "",
                                     ok ? info.backend : "", precision, ok ? info.params : "",
                                     a->summary, why };
            for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
                field(out, fields[f], f + 1 == sizeof fields / sizeof fields[0]);
            continue;
        }
        fprintf(out, "%-22s %-4s %s\n", a->name, step, a->summary);
        if (ok && a->step == 0) /* a purpose name says which lesson it chose */
            fprintf(out, "%-27s -> %s\n", "", info.runs);
        if (ok)
            fprintf(out, "%-27s %s:%s, %s, %s, %s\n", "", info.file, info.kernel, info.backend,
                    precision, info.params);
        else
            fprintf(out, "%-27s cannot run: %s\n", "", why);
    }
    if (csv) {
        clgemm_close(ctx);
        return 0;
    }
    fprintf(out, "%-22s %-4s %s\n", AUTO_NAME, "-",
            "the fastest tuned fp32 algorithm for the device and shape (tools/tune.py), "
            "else warp_tiled");
    fprintf(out, "%-22s %-4s %s\n", BASELINE_NAME, "-",
            "CLBlast SGEMM with its default parameters (the baseline of every row)");
    /* What auto and the purpose names run by shape here (beyond every class: as above). */
    const size_t need = clgemm_shape_rules(ctx, NULL, 0);
    char *rules = need ? malloc(need + 1) : NULL;
    if (rules && clgemm_shape_rules(ctx, rules, need + 1) == need)
        fprintf(out, "\nby shape on this device (tuning database; larger M: as above; "
                     "clgemm_resolve_reason says which applied):\n%s", rules);
    free(rules);
    clgemm_close(ctx);
    return 0;
}
