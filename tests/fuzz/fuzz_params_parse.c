/* libFuzzer target: tile parameters ("BM=128 BN=128,BK=8").  The input is split at its first
 * NUL into two texts parsed into the same set, as the registry defaults and a user's overrides
 * are.  Properties: no crash or overflow; keys stay valid, unique and NUL-terminated; the set
 * prints back to text that parses to the same set; the -D form fits any buffer size. */
#include <ctype.h>
#include <string.h>

#include "fuzz_check.h"
#include "params.h"

static void check_set(const params *p, const uint8_t *data, size_t size)
{
    FUZZ_CHECK(p->count >= 0 && p->count <= PARAMS_MAX);
    for (int i = 0; i < p->count; i++) {
        const char *k = p->kv[i].key;
        size_t n = strnlen(k, sizeof p->kv[i].key);
        FUZZ_CHECK(n > 0 && n < sizeof p->kv[i].key);
        FUZZ_CHECK(!isdigit((unsigned char)k[0]));
        for (size_t j = 0; j < n; j++)
            FUZZ_CHECK(isalnum((unsigned char)k[j]) || k[j] == '_');
        for (int j = 0; j < i; j++)
            FUZZ_CHECK(strcmp(p->kv[j].key, k) != 0);
        FUZZ_CHECK(params_get(p, k, p->kv[i].value ^ 1) == p->kv[i].value);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t first = nul ? (size_t)(nul - data) : size;
    char *a = fuzz_string(data, first);
    char *b = nul ? fuzz_string(nul + 1, size - first - 1) : NULL;

    params p;
    memset(&p, 0, sizeof p);
    errbuf e = { "" };
    int rc = params_parse(&p, a, &e);
    FUZZ_CHECK(rc == 0 || rc == -1);
    FUZZ_CHECK(rc == 0 || e.msg[0] != '\0');
    check_set(&p, data, size);
    if (b) {
        rc = params_parse(&p, b, &e);
        FUZZ_CHECK(rc == 0 || rc == -1);
        check_set(&p, data, size);
    }

    /* Round trip through text. */
    char text[PARAMS_MAX * 48];
    params_to_text(&p, text, sizeof text);
    params q;
    memset(&q, 0, sizeof q);
    FUZZ_CHECK(params_parse(&q, text, &e) == 0);
    FUZZ_CHECK(q.count == p.count);
    for (int i = 0; i < p.count; i++)
        FUZZ_CHECK(strcmp(q.kv[i].key, p.kv[i].key) == 0 && q.kv[i].value == p.kv[i].value);

    /* The -D form into buffers of every small size: always terminated, never past the end. */
    for (size_t n = 1; n <= 40; n++) {
        char *out = malloc(n);
        if (!out)
            abort();
        params_to_defines(&p, out, n);
        FUZZ_CHECK(memchr(out, '\0', n) != NULL);
        free(out);
    }
    free(a);
    free(b);
    return 0;
}
