/* libFuzzer target: parse_size ("N" or "MxNxK") on arbitrary bytes.  Properties: it never
 * crashes or reads past the string; it accepts only positive sizes, which print back to a
 * string it parses to the same shape; a refusal is -1 with the documented message. */
#include <string.h>

#include "cli.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    gemm_shape s = { -1, -1, -1 };
    errbuf e = { "" };
    int rc = parse_size(text, &s, &e);
    FUZZ_CHECK(rc == 0 || rc == -1);
    if (rc == 0) {
        FUZZ_CHECK(s.M >= 1 && s.N >= 1 && s.K >= 1);
        char again[64];
        snprintf(again, sizeof again, "%dx%dx%d", s.M, s.N, s.K);
        gemm_shape t = { 0, 0, 0 };
        FUZZ_CHECK(parse_size(again, &t, &e) == 0);
        FUZZ_CHECK(t.M == s.M && t.N == s.N && t.K == s.K);
    } else {
        FUZZ_CHECK(strncmp(e.msg, "bad --size", 10) == 0);
        FUZZ_CHECK(memchr(e.msg, '\0', sizeof e.msg) != NULL);
    }
    free(text);
    return 0;
}
