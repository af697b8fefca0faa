/* Every algorithm of the registry (CLBlast included) against a full double-precision
 * reference at awkward sizes, on one device (PoCL in CI), each size twice:
 *   - tight buffers: leading dimension = columns (rounded up to the algorithm's vector
 *     width), a nonzero offset into each buffer, alpha = -1.5 and beta = 0.5;
 *   - padded buffers (rows to 32 floats, NaN in the padding), alpha = 1, beta = 0 with C
 *     full of NaN, so reading C or past a row's end shows up as a failure.
 * Then tensor_core and wgmma with --dtype f16 and bf16 (16-bit buffers) at sizes of their own.
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
    /* Tile shapes beyond the registry defaults, run when their algorithm is asked for:
     * wgmma_tma's TF32 kernel with two consumers and BK 16 (A swizzled at 64 bytes) in bands
     * of 3, and BK 32 (128 bytes) on 64 x 64; wgmma_tma_tf32x3 likewise. */
    static const char *const variants32[] = {
        "wgmma_tma:BM=128,BN=128,BK=16,STAGES=2,THREADS=288,GM=3,INFLIGHT=1",
        "wgmma_tma:BM=64,BN=64,BK=32,STAGES=2,THREADS=160,INFLIGHT=1",
        /* tf32x3 on two consumers (both split A's box, then meet), chains of one 16-deep
         * slice, and three slices in flight; TF32 with A rounded in local memory, the
         * 128 x 64 tile with one slice in flight, and three consumers. */
        "wgmma_tma_tf32x3:BM=64,BN=128,BK=8,STAGES=5,THREADS=288,GM=3",
        "wgmma_tma_tf32x3:BK=16,STAGES=2,PROMOTE=1",
        "wgmma_tma_tf32x3:STAGES=4,INFLIGHT=3,PROMOTE=3",
        "wgmma_tma:ROUNDA=1,INFLIGHT=0,STAGES=3,GM=5",
        "wgmma_tma:BM=128,BN=64,BK=16,STAGES=3,INFLIGHT=1,THREADS=160",
        "wgmma_tma:BM=64,BN=192,BK=8,STAGES=4,THREADS=416",
        /* the packed TF32 kernel: A rounded too, two consumers on 128 x 128 with wgmmas of
         * N = 64 in bands of 3 (64-byte swizzle), and BK 32 (128-byte) on 64 x 64 */
        "wgmma_tma_packed:PACKA=1,WGN=64,GM=3",
        "wgmma_tma_packed:BM=64,BN=64,WGN=64,BK=32,STAGES=2,THREADS=160",
        /* tf32x3 through the packed halves: chains of 1 and 3 slices */
        "wgmma_tma_packed:SPLIT=1,BM=64,BN=128,WGN=64,BK=16,STAGES=3,THREADS=160,GM=3,PROMOTE=3",
        "wgmma_tma_packed:SPLIT=1,BK=8,PROMOTE=1",
    };
    for (size_t v = 0; v < sizeof variants32 / sizeof variants32[0] && nalgos < 64; v++) {
        size_t base = strcspn(variants32[v], ":");
        bool wanted = false;
        for (size_t a = 0; a < nalgos; a++)
            wanted = wanted || (strlen(algos[a]) == base && strncmp(algos[a], variants32[v], base) == 0);
        if (wanted)
            algos[nalgos++] = variants32[v];
    }
    int cases = 0, failed = 0;
    for (size_t a = 0; a < nalgos; a++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int tight = 0; tight <= 1; tight++) {
                /* A registry row whose precision is 16-bit has no fp32 kernel (wgmma_tma):
                 * it is tested below, with 16-bit data. */
                char base_name[64];
                snprintf(base_name, sizeof base_name, "%.*s", (int)strcspn(algos[a], ":"),
                         algos[a]);
                const clgemm_algorithm_desc *row_desc = clgemm_find_algorithm(base_name);
                if (row_desc && (strcmp(row_desc->precision, "f16") == 0 ||
                                 strcmp(row_desc->precision, "bf16") == 0))
                    continue;
                run_request req = run_request_defaults();
                req.shape = sizes[i];
                req.algos = &algos[a];
                req.nalgos = 1;
                req.iters = 1;
                req.warmup = 0;
                req.check = CHECK_FULL;
                req.seed = 1000 + i;
                const clgemm_algorithm_desc *desc = clgemm_find_algorithm(base_name);
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

    /* --dtype f16 and bf16: tensor_core and wgmma on 16-bit buffers (A and B rounded on the host, the
     * reference from the rounded values), at sizes that are not multiples of the m16n8k16
     * fragments or of the tiles, with the defaults (128x128 group, 64x64 warp tiles, BK 32)
     * and a variant with another warp grid and a K slice longer than most K here.  The row
     * must say it ran the 16-bit kernel (precision f16/bf16), so an fp32 fallback cannot
     * pass for it.  16-bit operands need offsets and leading dimensions in multiples of 8. */
    static const gemm_shape sizes16[] = {
        { 1, 1, 1 }, { 37, 45, 29 }, { 129, 67, 41 }, { 64, 64, 64 }, { 200, 136, 100 },
    };
    /* wgmma (cl/09_wgmma_f16.cl): its defaults, and two warpgroups with a 32-deep K slice
     * and no wgmma left in flight. */
    static const char *const variants16[] = {
        "tensor_core", "tensor_core:BM=64,BN=64,BK=64,WM=32,WN=32,TM=8,TN=4",
        "wgmma", "wgmma:BM=128,TM=16,BN=128,WGN=128,TN=4,BK=32,STAGES=2,WAIT=0",
        /* wgmma_tma (cl/10_wgmma_tma.cl): its defaults (one consumer on 64 x 256, BK 16,
         * four slots, bands of 16), two consumers on 128 x 128, one consumer with three B
         * panels and three wgmmas per k step at BK 32, and BK 64 (A swizzled at 128 bytes)
         * in bands of 3. */
        "wgmma_tma", "wgmma_tma:BM=128,BN=128,WGN=128,BK=16,STAGES=4,THREADS=288,GM=8",
        "wgmma_tma:BM=64,BN=192,WGN=64,BK=32,STAGES=2,THREADS=160",
        "wgmma_tma:BM=64,BN=64,WGN=64,BK=64,STAGES=2,THREADS=160,GM=3",
    };
    for (int dt = 0; dt < 2; dt++)
        for (size_t v = 0; v < sizeof variants16 / sizeof variants16[0]; v++) {
            bool wanted = false;   /* its algorithm is among those asked for */
            size_t base = strcspn(variants16[v], ":");
            for (size_t a = 0; a < nalgos; a++)
                wanted = wanted || (strlen(algos[a]) == base &&
                                    strncmp(algos[a], variants16[v], base) == 0);
            for (size_t i = 0; wanted && i < sizeof sizes16 / sizeof sizes16[0]; i++)
                for (int tight = 0; tight <= 1; tight++) {
                    clgemm_dtype dtype = dt ? CLGEMM_BF16 : CLGEMM_F16;
                    run_request req = run_request_defaults();
                    req.shape = sizes16[i];
                    req.algos = &variants16[v];
                    req.nalgos = 1;
                    req.iters = 1;
                    req.warmup = 0;
                    req.check = CHECK_FULL;
                    req.seed = 2000 + i;
                    req.dtype = dtype;
                    req.ld_multiple = tight ? 8 : 32;
                    req.offset = tight ? 8 : 0;
                    req.alpha = tight ? -1.5f : 1.0f;
                    req.beta = tight ? 0.5f : 0.0f;
                    run_result res;
                    cases++;
                    if (session_run(s, &req, &res, &e) != 0) {
                        printf("FAIL %s %s: %s\n", variants16[v], clgemm_dtype_name(dtype),
                               e.msg);
                        failed++;
                        continue;
                    }
                    const run_row *row = &res.rows[0];
                    bool ok = row->status == ROW_OK && row->bits16 &&
                              strcmp(row->precision, clgemm_dtype_name(dtype)) == 0;
                    failed += !ok;
                    printf("%s %-24.24s %-4s %4dx%4dx%4d %s error %.2e (tolerance %.2e) %s %s\n",
                           ok ? "ok  " : "FAIL", variants16[v], clgemm_dtype_name(dtype),
                           req.shape.M, req.shape.N, req.shape.K,
                           tight ? "tight ld, offset, beta=0.5" : "padded, beta=0  ", row->error,
                           row->tolerance, ok ? "" : row_status_name(row->status), row->note);
                    if (row->build_log)
                        printf("%s\n", row->build_log);
                    run_result_free(&res);
                }
        }
    session_close(s);
    printf("%d cases, %d failed\n", cases, failed);
    return failed ? 1 : 0;
}
