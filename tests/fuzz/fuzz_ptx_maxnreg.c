/* libFuzzer target: the register cap written into PTX (host/lib/ptx_maxnreg.h) over arbitrary
 * bytes, the cap taken from the first byte (which may fall outside 16..255).  Properties: no
 * crash or read past the input (its own allocation, not NUL-terminated); a failure says why;
 * an accepted text grew by one ".maxnreg N" line per capped entry and nothing else, and a
 * second pass refuses it (every entry now has its cap). */
#include <stdio.h>
#include <string.h>

#include "fuzz_check.h"
#include "ptx_maxnreg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const int cap = 8 + data[0]; /* 8..263: both refusals and every valid cap */
    data++, size--;
    char *in = malloc(size ? size : 1);
    FUZZ_CHECK(in != NULL);
    memcpy(in, data, size);
    errbuf e = { "" };
    size_t len = 0;
    int entries = -1;
    char *out = ptx_cap_registers(in, size, cap, &len, &entries, &e);
    if (!out) {
        FUZZ_CHECK(e.msg[0] != '\0');
    } else {
        FUZZ_CHECK(cap >= PTX_MAXNREG_MIN && cap <= PTX_MAXNREG_MAX && entries >= 1);
        char line[32];
        const size_t added = (size_t)snprintf(line, sizeof line, ".maxnreg %d\n", cap);
        const char *nul = memchr(in, '\0', size);
        const size_t text = nul ? (size_t)(nul - in) : size;
        /* CRLF texts add one more byte per line ("\r\n"); never more than that. */
        FUZZ_CHECK(len == strlen(out) && len >= text + added * (size_t)entries &&
                   len <= text + (added + 1) * (size_t)entries);
        errbuf e2 = { "" };
        char *again = ptx_cap_registers(out, len, cap, NULL, NULL, &e2);
        FUZZ_CHECK(again == NULL && strstr(e2.msg, "already has a .maxnreg") != NULL);
        free(again);
    }
    free(out);
    free(in);
    return 0;
}
