#include "list.h"

#include <string.h>

#include "runner.h"

int list_algorithms(FILE *out, size_t device_index, clgemm_dtype dtype)
{
    clgemm_context *ctx;
    if (clgemm_open_device(device_index, &ctx) != CLGEMM_SUCCESS) {
        fprintf(stderr, "clgemm: %s\n", clgemm_last_error());
        return -1;
    }
    const clgemm_device_desc *dev = clgemm_device(ctx);
    fprintf(out, "device %s (%s), %s data: what each name runs here\n\n", dev->name,
            dev->platform_name, clgemm_dtype_name(dtype));
    fprintf(out, "%-22s %-4s %s\n", "name", "step", "runs");
    for (size_t i = 0; i < clgemm_algorithm_count(); i++) {
        const clgemm_algorithm_desc *a = clgemm_algorithm(i);
        clgemm_build_info info;
        char step[12] = "-";
        if (a->step > 0)
            snprintf(step, sizeof step, "%d", a->step);
        fprintf(out, "%-22s %-4s %s\n", a->name, step, a->summary);
        /* Algorithms without a kernel for 16-bit data run on the rounded values as fp32
         * (as clgemm --dtype does). */
        const bool as_fp32 = dtype != CLGEMM_F32 && !clgemm_algorithm_has_dtype(a->name, dtype);
        if (clgemm_describe(ctx, a->name, as_fp32 ? CLGEMM_F32 : dtype, &info) ==
            CLGEMM_SUCCESS) {
            /* A purpose name says which lesson it chose. */
            if (a->step == 0)
                fprintf(out, "%-27s -> %s\n", "", info.runs);
            fprintf(out, "%-27s %s:%s, %s, %s%s, %s\n", "", info.file, info.kernel,
                    info.backend, info.precision, as_fp32 ? " on the rounded values" : "",
                    info.params);
        } else {
            const char *why = clgemm_last_error();
            const char *colon = strstr(why, ": ");
            /* "clgemm_describe: name: reason" -> the reason */
            for (int k = 0; k < 2 && colon; k++, colon = strstr(why, ": "))
                why = colon + 2;
            fprintf(out, "%-27s cannot run: %s\n", "", why);
        }
    }
    fprintf(out, "%-22s %-4s %s\n", AUTO_NAME, "-",
            "the fastest tuned fp32 algorithm for the device and size (tools/tune.py), "
            "else warp_tiled");
    fprintf(out, "%-22s %-4s %s\n", BASELINE_NAME, "-",
            "CLBlast SGEMM with its default parameters (the baseline of every row)");
    clgemm_close(ctx);
    return 0;
}
