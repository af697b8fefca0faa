/* libFuzzer target: the whole command line.  The input is split at NUL bytes into argv[1..]
 * (each argument in its own allocation), then cli_parse runs on it.  Properties: no crash, no
 * read past an argument or argv; success leaves options in their documented ranges; failure is
 * -1 with a message. */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "fuzz_check.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = fuzz_string((const uint8_t *)"clgemm", 6);
    size_t start = 0;
    while (start < size && argc <= MAX_ARGS) {
        const uint8_t *nul = memchr(data + start, '\0', size - start);
        size_t end = nul ? (size_t)(nul - data) : size;
        argv[argc++] = fuzz_string(data + start, end - start);
        start = end + 1;
    }
    argv[argc] = NULL;

    cli_options o;
    errbuf e = { "" };
    int rc = cli_parse(argc, argv, &o, &e);
    FUZZ_CHECK(rc == 0 || rc == -1);
    if (rc == 0) {
        if (o.size_given)
            FUZZ_CHECK(o.shape.M >= 1 && o.shape.N >= 1 && o.shape.K >= 1);
        FUZZ_CHECK(o.iters >= 0 && o.iters <= 100000);
        FUZZ_CHECK(o.warmup >= 0 && o.warmup <= 10000);
        FUZZ_CHECK(isfinite(o.alpha) && isfinite(o.beta));
        FUZZ_CHECK(o.format == FORMAT_TABLE || o.format == FORMAT_CSV || o.format == FORMAT_JSON);
        FUZZ_CHECK(o.device == NULL || o.device[0] != '\0');
        FUZZ_CHECK(o.layout == CLGEMM_ROW_MAJOR || o.layout == CLGEMM_COL_MAJOR);
        FUZZ_CHECK((o.op_a == CLGEMM_OP_N || o.op_a == CLGEMM_OP_T) &&
                   (o.op_b == CLGEMM_OP_N || o.op_b == CLGEMM_OP_T));
        FUZZ_CHECK(o.ld_pad >= -1 && o.ld_pad <= 65536 && o.batch >= 1);
    } else {
        FUZZ_CHECK(e.msg[0] != '\0');
        FUZZ_CHECK(memchr(e.msg, '\0', sizeof e.msg) != NULL);
    }
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    return 0;
}
