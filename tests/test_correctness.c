/* Every algorithm of the registry (CLBlast included) against a full double-precision
 * reference at awkward sizes, on one device (PoCL in CI), each size twice:
 *   - tight buffers: leading dimension = columns (rounded up to the algorithm's vector
 *     width), a nonzero offset into each buffer, alpha = -1.5 and beta = 0.5;
 *   - padded buffers (rows to 32 floats, NaN in the padding), alpha = 1, beta = 0 with C
 *     full of NaN, so reading C or past a row's end shows up as a failure.
 * usage: test_correctness [ALGO...]   (default: all; device from $CLGEMM_TEST_DEVICE,
 * else "pocl") */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "runner.h"

static const gemm_shape sizes[] = {
    { 1, 1, 1 },       { 2, 2, 2 },       { 7, 7, 7 },       { 16, 16, 16 },
    { 33, 33, 33 },    { 64, 64, 64 },    { 65, 65, 65 },    { 127, 129, 31 },
    { 256, 256, 256 }, { 300, 200, 100 }, { 1000, 17, 513 },
};

int main(int argc, char **argv)
{
    const char *spec = getenv("CLGEMM_TEST_DEVICE");
    if (!spec || !*spec)
        spec = "pocl";
    const clgemm_device_desc *devices;
    size_t ndevices, picked[64], npicked = 0;
    if (clgemm_devices(&devices, &ndevices) != CLGEMM_SUCCESS || ndevices > 64 ||
        clgemm_select_devices(spec, picked, &npicked) != CLGEMM_SUCCESS) {
        fprintf(stderr, "test_correctness: %s\n", clgemm_last_error());
        return 1;
    }
    const clgemm_device_desc *dev = &devices[picked[0]];
    printf("device: %s (%s)\n", dev->name, dev->platform_name);

    /* Every algorithm of the library plus the baseline, or those named. */
    const char *algos[64];
    size_t nalgos = 0;
    for (size_t i = 0; i <= clgemm_algorithm_count(); i++) {
        const char *name = i < clgemm_algorithm_count() ? clgemm_algorithm(i)->name
                                                        : BASELINE_NAME;
        bool wanted = argc < 2;
        for (int a = 1; a < argc; a++)
            wanted = wanted || strcmp(argv[a], name) == 0;
        if (wanted)
            algos[nalgos++] = name;
    }
    if (nalgos == 0 || (argc > 1 && nalgos != (size_t)(argc - 1))) {
        fprintf(stderr, "test_correctness: unknown algorithm among the arguments\n");
        return 1;
    }

    errbuf e = { "" };
    session *s = session_open(picked[0], &e);
    if (!s) {
        fprintf(stderr, "test_correctness: %s\n", e.msg);
        return 1;
    }
    int cases = 0, failed = 0;
    for (size_t a = 0; a < nalgos; a++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int tight = 0; tight <= 1; tight++) {
                run_request req = run_request_defaults();
                req.shape = sizes[i];
                req.algos = &algos[a];
                req.nalgos = 1;
                req.iters = 1;
                req.warmup = 0;
                req.check = CHECK_FULL;
                req.seed = 1000 + i;
                const clgemm_algorithm_desc *desc = clgemm_find_algorithm(algos[a]);
                int vec = desc ? desc->ld_multiple : 1;
                req.ld_multiple = tight ? vec : 32;
                req.offset = tight ? (vec > 1 ? vec : 3) : 0;
                req.alpha = tight ? -1.5f : 1.0f;
                req.beta = tight ? 0.5f : 0.0f;
                run_result res;
                cases++;
                if (session_run(s, &req, &res, &e) != 0) {
                    printf("FAIL %-24s %4dx%4dx%4d: %s\n", algos[a], req.shape.M, req.shape.N,
                           req.shape.K, e.msg);
                    failed++;
                    continue;
                }
                const run_row *row = &res.rows[0];
                bool ok = row->status == ROW_OK;
                failed += !ok;
                printf("%s %-24s %4dx%4dx%4d %s error %.2e (tolerance %.2e) %s %s\n",
                       ok ? "ok  " : "FAIL", algos[a], req.shape.M, req.shape.N, req.shape.K,
                       tight ? "tight ld, offset, beta=0.5" : "padded, beta=0  ", row->error,
                       row->tolerance, ok ? "" : row_status_name(row->status), row->note);
                if (row->build_log)
                    printf("%s\n", row->build_log);
                run_result_free(&res);
            }
    session_close(s);
    printf("%d cases, %d failed\n", cases, failed);
    return failed ? 1 : 0;
}
