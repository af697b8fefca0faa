/* libFuzzer target: the program-cache entry reader.  The first input byte picks the key
 * length, the rest is the entry's bytes.  Properties: no crash or read past the end; an
 * accepted entry's payload lies inside the input and is not empty; an entry built from any
 * payload and key parses back to exactly that payload. */
#include <string.h>

#include "cache.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t key_len = data[0] % 24;
    char key[24];
    memset(key, 'k', key_len);
    key[key_len] = '\0';
    const unsigned char *body = data + 1;
    size_t len = size - 1;

    const unsigned char *payload;
    size_t payload_len;
    cache_parse_result r = cache_entry_parse(body, len, key, &payload, &payload_len);
    FUZZ_CHECK(r == CACHE_ENTRY_OK || r == CACHE_ENTRY_CORRUPT || r == CACHE_ENTRY_OTHER_KEY);
    if (r == CACHE_ENTRY_OK)
        FUZZ_CHECK(payload_len > 0 && payload >= body && payload + payload_len == body + len);

    if (len > 0) { /* round trip with the input as payload */
        size_t n;
        unsigned char *entry = cache_entry_build(key, body, len, &n);
        FUZZ_CHECK(entry != NULL);
        FUZZ_CHECK(cache_entry_parse(entry, n, key, &payload, &payload_len) == CACHE_ENTRY_OK);
        FUZZ_CHECK(payload_len == len && memcmp(payload, body, len) == 0);
        free(entry);
    }
    return 0;
}
