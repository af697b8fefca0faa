#include "cli.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "epilogue_check.h"
#include "runner.h"

enum {
    OPT_HELP = 'h',
    OPT_QUIET = 'q',
    OPT_VERSION = 256, /* long-only options: values outside char's range */
    OPT_LIST_DEVICES,
    OPT_NO_CHECK,
    OPT_NO_BASELINE,
    OPT_SHOW_UNSUPPORTED,
    OPT_COLD_L2,
    OPT_ALGO,
    OPT_SIZE,
    OPT_DEVICE,
    OPT_ITERS,
    OPT_WARMUP,
    OPT_FORMAT,
    OPT_SEED,
    OPT_DTYPE,
    OPT_ALPHA,
    OPT_BETA,
    OPT_LAYOUT,
    OPT_TRANS,
    OPT_LD_PAD,
    OPT_BATCH,
    OPT_OUT,
    OPT_EPILOGUE,
};

static const struct option long_options[] = {
    { "help", no_argument, NULL, OPT_HELP },
    { "version", no_argument, NULL, OPT_VERSION },
    { "list-devices", no_argument, NULL, OPT_LIST_DEVICES },
    { "no-check", no_argument, NULL, OPT_NO_CHECK },
    { "no-baseline", no_argument, NULL, OPT_NO_BASELINE },
    { "quiet", no_argument, NULL, OPT_QUIET },
    { "show-unsupported", no_argument, NULL, OPT_SHOW_UNSUPPORTED },
    { "cold-l2", no_argument, NULL, OPT_COLD_L2 },
    { "algo", required_argument, NULL, OPT_ALGO },
    { "size", required_argument, NULL, OPT_SIZE },
    { "device", required_argument, NULL, OPT_DEVICE },
    { "iters", required_argument, NULL, OPT_ITERS },
    { "warmup", required_argument, NULL, OPT_WARMUP },
    { "format", required_argument, NULL, OPT_FORMAT },
    { "seed", required_argument, NULL, OPT_SEED },
    { "dtype", required_argument, NULL, OPT_DTYPE },
    { "alpha", required_argument, NULL, OPT_ALPHA },
    { "beta", required_argument, NULL, OPT_BETA },
    { "layout", required_argument, NULL, OPT_LAYOUT },
    { "trans", required_argument, NULL, OPT_TRANS },
    { "ld-pad", required_argument, NULL, OPT_LD_PAD },
    { "batch", required_argument, NULL, OPT_BATCH },
    { "out", required_argument, NULL, OPT_OUT },
    { "epilogue", required_argument, NULL, OPT_EPILOGUE },
    { NULL, 0, NULL, 0 },
};

/* "--name" of an option's value, for messages. */
static const char *option_name(int val)
{
    for (const struct option *o = long_options; o->name; o++)
        if (o->val == val)
            return o->name;
    return "?";
}

/* True when arg spells "--name" or "--name=..." in full.  getopt_long also takes any
 * unambiguous prefix (--si for --size); refusing those keeps the flags exactly as documented,
 * so a flag added later cannot change what an abbreviation in someone's script means. */
static bool spelled_out(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, name, n) == 0 &&
           (arg[2 + n] == '\0' || arg[2 + n] == '=');
}

/* One line for what getopt_long refused: arg is the argument it was reading. */
static void refused(const char *arg, errbuf *e)
{
    for (const struct option *o = long_options; o->name; o++)
        if (o->has_arg == no_argument && spelled_out(arg, o->name) && strchr(arg, '=')) {
            err_set(e, "--%s takes no value (see --help)", o->name);
            return;
        }
    err_set(e, "unknown option '%s' (see --help)", arg);
}

/* Names earlier versions had, and where their kernels went (one step, one name). */
static const char *renamed(const char *name)
{
    static const struct {
        const char *old, *now;
    } table[] = {
        { "wgmma_tma_packed", "its kernel is wgmma_tma on fp32 data" },
        { "wgmma_tma_packed_tf32x3", "its kernel is tensor_core_tf32x3 on Hopper "
                                     "(wgmma_tma:SPLIT=1)" },
        { "wgmma_tma_tf32x3", "the register-fed form left; tensor_core_tf32x3 runs the packed one" },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(name, table[i].old) == 0)
            return table[i].now;
    return NULL;
}

static int add_algo(cli_options *o, const char *name, errbuf *e)
{
    if (o->nalgos == CLI_MAX_ALGOS) {
        err_set(e, "at most %d --algo options", CLI_MAX_ALGOS);
        return -1;
    }
    o->algos[o->nalgos++] = name;
    return 0;
}

/* Every option that takes a value; v is that value. */
static int take_option(cli_options *o, int opt, const char *v, errbuf *e)
{
    long n;
    bool tf32x3 = false;
    if (!v) { /* getopt_long gives every required_argument a value; this keeps it so */
        err_set(e, "--%s needs a value (see --help)", option_name(opt));
        return -1;
    }
    switch (opt) {
    case OPT_ALGO: {
        /* A registry name may carry tile parameters: "warp_tiled:BM=64,BN=64". */
        size_t len = strcspn(v, ":");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), v);
        bool special = !v[len] && (strcmp(v, "all") == 0 || strcmp(v, "list") == 0 ||
                                   strcmp(v, BASELINE_NAME) == 0 || strcmp(v, AUTO_NAME) == 0);
        if (!special && (len >= sizeof name || !clgemm_find_algorithm(name))) {
            const char *now = renamed(name);
            if (now)
                err_set(e, "unknown algorithm '%s': %s (see --algo list)", v, now);
            else
                err_set(e, "unknown algorithm '%s' (see --algo list)", v);
            return -1;
        }
        /* Parameters are checked now, before any device work: an unknown key is an error,
         * never ignored. */
        if (!special && v[len] && clgemm_check_algorithm(v) != CLGEMM_SUCCESS) {
            const char *why = strstr(clgemm_last_error(), ": ");
            err_set(e, "bad --algo '%s': %s", v, why ? why + 2 : clgemm_last_error());
            return -1;
        }
        return add_algo(o, v, e);
    }
    case OPT_SIZE:
        if (parse_size(v, &o->shape, e) != 0)
            return -1;
        o->size_given = true;
        return 0;
    case OPT_DEVICE:
        if (!*v) {
            err_set(e, "--device needs a non-empty spec (see --list-devices)");
            return -1;
        }
        o->device = v;
        return 0;
    case OPT_ITERS:
        if (parse_int(v, 1, 100000, &n) != 0) {
            err_set(e, "bad --iters '%s': expected an integer from 1 to 100000", v);
            return -1;
        }
        o->iters = (int)n;
        return 0;
    case OPT_WARMUP:
        if (parse_int(v, 0, 10000, &n) != 0) {
            err_set(e, "bad --warmup '%s': expected an integer from 0 to 10000", v);
            return -1;
        }
        o->warmup = (int)n;
        return 0;
    case OPT_FORMAT:
        if (strcmp(v, "table") == 0)
            o->format = FORMAT_TABLE;
        else if (strcmp(v, "csv") == 0)
            o->format = FORMAT_CSV;
        else if (strcmp(v, "json") == 0)
            o->format = FORMAT_JSON;
        else {
            err_set(e, "bad --format '%s': expected table, csv or json", v);
            return -1;
        }
        return 0;
    case OPT_SEED:
        if (parse_int(v, 0, LONG_MAX, &n) != 0) {
            err_set(e, "bad --seed '%s': expected a non-negative integer", v);
            return -1;
        }
        o->seed = (uint64_t)n;
        return 0;
    case OPT_DTYPE:
        if (parse_dtype(v, &o->dtype, &tf32x3, e) != 0)
            return -1;
        return tf32x3 ? add_algo(o, "tensor_core_tf32x3", e) : 0;
    case OPT_ALPHA:
    case OPT_BETA:
        if (parse_float(v, opt == OPT_ALPHA ? &o->alpha : &o->beta) != 0) {
            err_set(e, "bad --%s '%s': expected a finite number", option_name(opt), v);
            return -1;
        }
        return 0;
    case OPT_LAYOUT:
        return parse_layout(v, &o->layout, e);
    case OPT_TRANS:
        return parse_trans(v, &o->op_a, &o->op_b, e);
    case OPT_LD_PAD:
        if (parse_int(v, 0, 65536, &n) != 0) {
            err_set(e, "bad --ld-pad '%s': expected an integer from 0 to 65536", v);
            return -1;
        }
        o->ld_pad = (int)n;
        return 0;
    case OPT_BATCH:
        if (parse_int(v, 1, INT_MAX, &n) != 0) {
            err_set(e, "bad --batch '%s': expected a positive integer", v);
            return -1;
        }
        o->batch = (int)n;
        return 0;
    case OPT_OUT:
        if (!strcmp(v, "tf32x3") || parse_dtype(v, &o->c_type, &tf32x3, e) != 0) {
            err_set(e, "bad --out '%s': expected f32, f16 or bf16", v);
            return -1;
        }
        return 0;
    case OPT_EPILOGUE:
        if (epilogue_parse(v, &o->epilogue) != 0) {
            err_set(e, "bad --epilogue '%s': expected none, bias, relu, bias_relu, gelu or "
                       "bias_gelu", v);
            return -1;
        }
        return 0;
    }
    err_set(e, "unknown option (see --help)");
    return -1;
}

int cli_parse(int argc, char **argv, cli_options *o, errbuf *e)
{
    *o = (cli_options){ .check = true, .baseline = true, .iters = 0, .warmup = 2,
                        .format = FORMAT_TABLE, .seed = 42, .alpha = 1.0f, .beta = 0.0f,
                        .dtype = CLGEMM_F32, .layout = CLGEMM_ROW_MAJOR, .op_a = CLGEMM_OP_N,
                        .op_b = CLGEMM_OP_N, .ld_pad = -1, .batch = 1 };
    /* Our messages, not getopt's; optind 0 makes glibc start over (its position inside a
     * cluster of short options included), so every call parses its own argv from the top.
     * '+': stop at the first argument that is not an option instead of moving it to the end,
     * so a stray word is refused below; ':': a missing value is ':', not '?'. */
    opterr = 0;
    optind = 0;
    for (;;) {
        int at = optind > 0 ? optind : 1; /* the argument getopt_long is about to read */
        int index = -1;
        int opt = getopt_long(argc, argv, "+:hq", long_options, &index);
        if (opt == -1)
            break;
        if (opt == '?') {
            refused(at < argc ? argv[at] : "", e);
            return -1;
        }
        if (opt == ':') {
            err_set(e, "--%s needs a value (see --help)", option_name(optopt));
            return -1;
        }
        if (index >= 0 && !spelled_out(argv[at], long_options[index].name)) {
            err_set(e, "unknown option '%s' (see --help)", argv[at]);
            return -1;
        }
        switch (opt) {
        case OPT_HELP: o->help = true; break;
        case OPT_QUIET: o->quiet = true; break;
        case OPT_VERSION: o->version = true; break;
        case OPT_LIST_DEVICES: o->list_devices = true; break;
        case OPT_NO_CHECK: o->check = false; break;
        case OPT_NO_BASELINE: o->baseline = false; break;
        case OPT_SHOW_UNSUPPORTED: o->show_unsupported = true; break;
        case OPT_COLD_L2: o->cold_l2 = true; break;
        default:
            if (take_option(o, opt, optarg, e) != 0)
                return -1;
        }
    }
    if (optind < argc) {
        err_set(e, "unexpected argument '%s' (see --help)", argv[optind]);
        return -1;
    }
    return 0;
}
