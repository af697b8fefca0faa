/* libFuzzer target: the sm_90a PTX post-pass (host/lib/ptx_retarget.h) over arbitrary bytes.
 * Properties: no crash or read past the input (it is its own allocation, not NUL-terminated);
 * a failure says why; an accepted text is at most one byte longer, says .target sm_90a, has
 * no marker line left that the pass would take, and goes through the pass again unchanged
 * (idempotence). */
#include <string.h>

#include "fuzz_check.h"
#include "ptx_retarget.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = malloc(size ? size : 1);
    FUZZ_CHECK(in != NULL);
    memcpy(in, data, size);
    errbuf e = { "" };
    size_t len = 0;
    int markers = -1;
    char *out = ptx_retarget_sm90a(in, size, &len, &markers, &e);
    if (!out) {
        FUZZ_CHECK(e.msg[0] != '\0');
    } else {
        FUZZ_CHECK(len == strlen(out) && len <= size + 1 && markers >= 0);
        FUZZ_CHECK(strstr(out, "sm_90a") != NULL);
        size_t len2 = 0;
        int markers2 = -1;
        errbuf e2 = { "" };
        char *again = ptx_retarget_sm90a(out, len, &len2, &markers2, &e2);
        /* A payload may itself start with the marker ("// @sm90a // @sm90a x"): then the
         * second pass takes one more layer, which is the rule, not a failure. */
        if (again && markers2 == 0)
            FUZZ_CHECK(len2 == len && memcmp(again, out, len) == 0);
        FUZZ_CHECK(again != NULL || e2.msg[0] != '\0');
        free(again);
    }
    free(out);
    free(in);
    return 0;
}
