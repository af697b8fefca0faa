/* clgemm: run, verify and time the GEMM progression on OpenCL devices.  Built on the
 * public API of libclgemm (clgemm.h) and the CLBlast baseline, nothing else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clgemm.h"
#include "report.h"
#include "list.h"
#include "runner.h"

#define DEFAULT_SIZE_GPU 2048
#define DEFAULT_SIZE_OTHER 256

static int bad_input(const char *msg)
{
    fprintf(stderr, "clgemm: %s\n", msg);
    return EXIT_BAD_INPUT;
}

/* Leaves without running the drivers' exit-time destructors.  Used only when the process
 * stops moments after enumerating devices: on the GPU machine (NVIDIA driver 580 beside
 * PoCL 5.0) one such exit in twenty aborted inside a driver with "terminate called without
 * an active exception", turning a clean "exit 2" into a crash. */
static _Noreturn void exit_soon_after_enumeration(int status)
{
    fflush(NULL);
    _Exit(status);
}

/* The requested algorithms plus CLBlast, so every row has its ratio; "all" is every one.
 * from_all[i] says that out[i] came from "all" (or the default) rather than by name; a name
 * both given and in "all" runs once, as given. */
static size_t pick_algos(const cli_options *opt, const char **out, bool *from_all, size_t cap)
{
    size_t count = 0;
    bool all = opt->nalgos == 0, baseline = opt->baseline;
    for (int i = 0; i < opt->nalgos; i++) {
        if (strcmp(opt->algos[i], "all") == 0)
            all = true;
        else if (strcmp(opt->algos[i], BASELINE_NAME) == 0)
            baseline = true;
        else if (count < cap) {
            from_all[count] = false;
            out[count++] = opt->algos[i];
        }
    }
    size_t named = count;
    for (size_t i = 0; all && i < clgemm_algorithm_count() && count < cap; i++) {
        const char *name = clgemm_algorithm(i)->name;
        bool given = false;
        for (size_t j = 0; j < named && !given; j++)
            given = strcmp(out[j], name) == 0;
        if (!given) {
            from_all[count] = true;
            out[count++] = name;
        }
    }
    if (baseline && count < cap) {
        from_all[count] = false;
        out[count++] = BASELINE_NAME;
    }
    return count;
}

int main(int argc, char **argv)
{
    cli_options opt;
    errbuf e = { "" };
    if (cli_parse(argc, argv, &opt, &e) != 0)
        return bad_input(e.msg);
    if (opt.help) {
        cli_print_help(argv[0]);
        return 0;
    }
    if (opt.version) {
        printf("clgemm %s\n", clgemm_version());
        return 0;
    }
    if (getenv("CLGEMM_TIME_LAST_KERNEL_ONLY")) {
        fprintf(stderr, "clgemm: CLGEMM_TIME_LAST_KERNEL_ONLY is set: times leave out "
                        "pre-passes (and all but CLBlast's last kernel)\n");
    }
    bool list = false;
    for (int i = 0; i < opt.nalgos; i++)
        list = list || strcmp(opt.algos[i], "list") == 0;

    const clgemm_device_desc *devices;
    size_t ndevices;
    if (clgemm_devices(&devices, &ndevices) != CLGEMM_SUCCESS) {
        fprintf(stderr, "clgemm: %s\n", clgemm_last_error());
        return 1;
    }
    if (opt.list_devices) {
        report_list_devices(stdout, devices, ndevices);
        exit_soon_after_enumeration(0);
    }

    int status = 0;
    size_t *picked = calloc(ndevices, sizeof *picked);
    report_entry *entries = calloc(ndevices, sizeof *entries);
    const char *algos[CLI_MAX_ALGOS + 16];
    bool from_all[sizeof algos / sizeof algos[0]];
    size_t npicked = 0;
    if (!picked || !entries) {
        fprintf(stderr, "clgemm: out of host memory\n");
        status = 1;
        goto done;
    }
    if (clgemm_select_devices(opt.device, picked, &npicked) != CLGEMM_SUCCESS)
        exit_soon_after_enumeration(bad_input(clgemm_last_error()));
    if (list) {
        for (size_t i = 0; i < npicked; i++)
            if (list_algorithms(stdout, picked[i], opt.dtype, opt.format != FORMAT_TABLE) != 0)
                status = 1;
        goto done;
    }

    run_request req = run_request_defaults();
    req.alpha = opt.alpha;
    req.beta = opt.beta;
    req.iters = opt.iters;
    req.warmup = opt.warmup;
    req.check = opt.check ? CHECK_AUTO : CHECK_NONE;
    req.seed = opt.seed;
    req.dtype = opt.dtype;
    req.layout = opt.layout;
    req.op_a = opt.op_a;
    req.op_b = opt.op_b;
    req.ld_pad = opt.ld_pad;
    req.batch = opt.batch;
    req.cold_l2 = opt.cold_l2;
    req.c_type = opt.c_type;
    req.epilogue = opt.epilogue;
    req.progress = !opt.quiet;
    req.algos = algos;
    req.nalgos = pick_algos(&opt, algos, from_all, sizeof algos / sizeof algos[0]);
    req.listed_by_all = from_all;
    if (opt.size_given) {
        req.shape = opt.shape;
    } else {
        /* One size for all picked devices, so a comparison compares like with like. */
        bool all_gpu = true;
        for (size_t i = 0; i < npicked; i++)
            all_gpu = all_gpu && (devices[picked[i]].type & CL_DEVICE_TYPE_GPU);
        int n = all_gpu ? DEFAULT_SIZE_GPU : DEFAULT_SIZE_OTHER;
        req.shape = (gemm_shape){ n, n, n };
    }
    /* Every device is validated before any of them allocates anything. */
    for (size_t i = 0; i < npicked; i++)
        if (run_validate(&devices[picked[i]], &req, &e) != 0)
            exit_soon_after_enumeration(bad_input(e.msg));

    size_t nentries = 0;
    for (size_t i = 0; i < npicked; i++) {
        const clgemm_device_desc *dev = &devices[picked[i]];
        session *s = session_open(picked[i], &e);
        if (!s) {
            fprintf(stderr, "clgemm: %s\n", e.msg);
            status = 1;
            continue;
        }
        report_entry *entry = &entries[nentries];
        if (session_run(s, &req, &entry->result, &e) != 0) {
            fprintf(stderr, "clgemm: [%s] %s\n", dev->name, e.msg);
            status = 1;
        } else {
            entry->dev = dev;
            entry->alpha = req.alpha;
            entry->beta = req.beta;
            nentries++;
            for (size_t r = 0; r < entry->result.nrows; r++)
                if (entry->result.rows[r].build_log)
                    fprintf(stderr, "clgemm: [%s] %s build log:\n%s\n", dev->name,
                            entry->result.rows[r].name, entry->result.rows[r].build_log);
            if (!run_result_passed(&entry->result))
                status = 1;
        }
        session_close(s);
    }
    if (nentries)
        report_print(stdout, opt.format, entries, nentries, opt.show_unsupported);
    for (size_t i = 0; i < nentries; i++)
        run_result_free(&entries[i].result);
done:
    free(picked);
    free(entries);
    return status;
}
