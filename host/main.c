/* clgemm: run, verify and time the GEMM progression on OpenCL devices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "cli.h"
#include "clgemm_config.h"
#include "device.h"
#include "report.h"
#include "runner.h"

#define DEFAULT_SIZE_GPU 2048
#define DEFAULT_SIZE_OTHER 256

static int bad_input(const errbuf *e)
{
    fprintf(stderr, "clgemm: %s\n", e->msg);
    return EXIT_BAD_INPUT;
}

/* Leaves without running the drivers' exit-time destructors.  Used only when the process
 * stops moments after enumerating devices: on the GPU machine (NVIDIA driver 580 beside
 * PoCL 5.0) one such exit in twenty aborted inside a driver with "terminate called without
 * an active exception", turning a clean "exit 2" into a crash. */
static _Noreturn void exit_soon_after_enumeration(device_list *devices, int status)
{
    devices_free(devices);
    fflush(NULL);
    _Exit(status);
}

/* The requested algorithm, plus CLBlast so every row has its ratio; "all" is the registry. */
static size_t pick_algos(const char *name, bool baseline, const algo_def **out, size_t cap)
{
    size_t n;
    const algo_def *all = algos_all(&n);
    size_t count = 0;
    for (size_t i = 0; i < n && count < cap; i++)
        if (strcmp(name, "all") == 0 || strcmp(name, all[i].name) == 0 ||
            (baseline && all[i].kind == ALGO_CLBLAST))
            out[count++] = &all[i];
    return count;
}

int main(int argc, char **argv)
{
    cli_options opt;
    errbuf e = { "" };
    if (cli_parse(argc, argv, &opt, &e) != 0)
        return bad_input(&e);
    if (opt.help) {
        cli_print_help(argv[0]);
        return 0;
    }
    if (opt.version) {
        printf("clgemm %s\n", CLGEMM_VERSION);
        return 0;
    }
    if (strcmp(opt.algo, "list") == 0) {
        report_list_algos(stdout);
        return 0;
    }

    device_list devices;
    if (devices_enumerate(&devices, &e) != 0) {
        fprintf(stderr, "clgemm: %s\n", e.msg);
        return 1;
    }
    if (opt.list_devices) {
        report_list_devices(stdout, &devices);
        exit_soon_after_enumeration(&devices, 0);
    }

    int status = 0;
    size_t *picked = calloc(devices.count, sizeof *picked);
    report_entry *entries = calloc(devices.count, sizeof *entries);
    const algo_def *algos[64];
    if (!picked || !entries) {
        fprintf(stderr, "clgemm: out of host memory\n");
        status = 1;
        goto done;
    }
    int npicked = devices_select(&devices, opt.device, picked, &e);
    if (npicked < 0) {
        free(picked);
        free(entries);
        exit_soon_after_enumeration(&devices, bad_input(&e));
    }

    run_request req = run_request_defaults();
    req.alpha = opt.alpha;
    req.beta = opt.beta;
    req.iters = opt.iters;
    req.warmup = opt.warmup;
    req.check = opt.check ? CHECK_AUTO : CHECK_NONE;
    req.seed = opt.seed;
    req.progress = !opt.quiet;
    req.algos = algos;
    req.nalgos = pick_algos(opt.algo, opt.baseline, algos, sizeof algos / sizeof algos[0]);
    if (opt.size_given) {
        req.shape = opt.shape;
    } else {
        /* One size for all picked devices, so a comparison compares like with like. */
        bool all_gpu = true;
        for (int i = 0; i < npicked; i++)
            all_gpu = all_gpu && (devices.items[picked[i]].type & CL_DEVICE_TYPE_GPU);
        int n = all_gpu ? DEFAULT_SIZE_GPU : DEFAULT_SIZE_OTHER;
        req.shape = (gemm_shape){ n, n, n };
    }
    /* Every device is validated before any of them allocates anything. */
    for (int i = 0; i < npicked; i++)
        if (run_validate(&devices.items[picked[i]], &req, &e) != 0) {
            free(picked);
            free(entries);
            exit_soon_after_enumeration(&devices, bad_input(&e));
        }

    size_t nentries = 0;
    for (int i = 0; i < npicked; i++) {
        const device_info *dev = &devices.items[picked[i]];
        session *s = session_open(dev, &e);
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
                            entry->result.rows[r].algo->name, entry->result.rows[r].build_log);
            if (!run_result_passed(&entry->result))
                status = 1;
        }
        session_close(s);
    }
    if (nentries)
        report_print(stdout, opt.format, entries, nentries);
    for (size_t i = 0; i < nentries; i++)
        run_result_free(&entries[i].result);
done:
    free(picked);
    free(entries);
    devices_free(&devices);
    return status;
}
