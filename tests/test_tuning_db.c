/* Unit tests of what the library reads from disk: the program cache's entries (every
 * damage refused) and the tuning database (lookup, and every shipped file parses). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "kernel_sources.h"
#include "tuning.h"
#include "registry.h"
#include "expect.h"

/* Entries round-trip, and every damage to one is refused, never read past its end. */
static void test_cache_entry(void)
{
    const unsigned char payload[] = "compiled program bytes";
    size_t len;
    unsigned char *buf = cache_entry_build("key-1", payload, sizeof payload, &len);
    const unsigned char *p;
    size_t n;
    EXPECT(buf && cache_entry_parse(buf, len, "key-1", &p, &n) == CACHE_ENTRY_OK &&
           n == sizeof payload && memcmp(p, payload, n) == 0);
    EXPECT(cache_entry_parse(buf, len, "key-2", &p, &n) == CACHE_ENTRY_OTHER_KEY);
    EXPECT(cache_entry_parse(buf, len, "key-", &p, &n) == CACHE_ENTRY_OTHER_KEY);
    int refused = 0;
    for (size_t cut = 0; cut < len; cut++)
        refused += cache_entry_parse(buf, cut, "key-1", &p, &n) == CACHE_ENTRY_CORRUPT;
    EXPECT(refused == (int)len); /* every truncation */
    int flips = 0;
    for (size_t i = 0; i < len; i++) {
        buf[i] ^= 0x40;
        flips += cache_entry_parse(buf, len, "key-1", &p, &n) != CACHE_ENTRY_OK;
        buf[i] ^= 0x40;
    }
    EXPECT(flips == (int)len); /* every single-byte change */
    free(buf);
    EXPECT(fnv1a64("a", 1, FNV1A64_SEED) == 0xaf63dc4c8601ec8cull); /* published FNV-1a value */
}

static bool not_warp_tiled(const char *algorithm) { return strcmp(algorithm, "warp_tiled") != 0; }

static void test_tuning(void)
{
    const char *text =
        "{\"format\": \"clgemm-tuning-1\", \"note\": {\"x\": [1, 2, {\"y\": null}]},\n"
        " \"entries\": [\n"
        "  {\"device\": \"GPU X\", \"driver\": \"1.0\", \"algorithm\": \"warp_tiled\",\n"
        "   \"M\": 1024, \"N\": 1024, \"K\": 1024, \"params\": \"BM=64,BN=64\", \"gflops\": 9000},\n"
        "  {\"device\": \"GPU X\", \"driver\": \"1.0\", \"algorithm\": \"warp_tiled\",\n"
        "   \"M\": 4096, \"N\": 4096, \"K\": 4096, \"params\": \"BM=128,BN=128\", \"gflops\": 40000.5},\n"
        "  {\"device\": \"GPU X\", \"driver\": \"2.0\", \"algorithm\": \"warp_tiled\",\n"
        "   \"M\": 4096, \"N\": 4096, \"K\": 4096, \"params\": \"BM=256,BN=128\", \"gflops\": 41000},\n"
        "  {\"device\": \"GPU X\", \"driver\": \"1.0\", \"algorithm\": \"tiled\",\n"
        "   \"M\": 4096, \"N\": 4096, \"K\": 4096, \"params\": \"BM=32\", \"gflops\": 7000, \"extra\": true},\n"
        "  {\"device\": \"GPU X\", \"algorithm\": \"incomplete\"}\n"
        " ]}";
    tuning_db db = { 0 };
    EXPECT(tuning_parse(&db, text, strlen(text), 0) == 4 && db.count == 4);
    const tuning_entry *t = tuning_lookup(&db, "GPU X", "1.0", "warp_tiled", 1000, 1000, 1000, NULL);
    EXPECT(t && strcmp(t->params, "BM=64,BN=64") == 0);
    t = tuning_lookup(&db, "GPU X", "1.0", "warp_tiled", 4095, 4095, 4095, NULL);
    EXPECT(t && strcmp(t->params, "BM=128,BN=128") == 0); /* same driver preferred */
    t = tuning_lookup(&db, "GPU X", "2.0", "warp_tiled", 8192, 8192, 8192, NULL);
    EXPECT(t && strcmp(t->params, "BM=256,BN=128") == 0);
    t = tuning_lookup(&db, "GPU X", "1.0", NULL, 4096, 4096, 4096, NULL);
    EXPECT(t && strcmp(t->algorithm, "warp_tiled") == 0); /* auto: fastest at that size */
    t = tuning_lookup(&db, "GPU X", "1.0", NULL, 4096, 4096, 4096, not_warp_tiled);
    EXPECT(t && strcmp(t->algorithm, "tiled") == 0); /* ... among those accepted */
    EXPECT(tuning_lookup(&db, "GPU Y", "1.0", "warp_tiled", 64, 64, 64, NULL) == NULL);
    /* Anything else is refused or partly read, never read past its end. */
    const char *bad[] = { "", "{", "[]", "{\"entries\": [", "{\"format\": 3}", "nul",
                          "{\"format\": \"clgemm-tuning-1\", \"entries\": [{\"M\": \"",
                          "{\"a\":" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t before = db.count;
        EXPECT(tuning_parse(&db, bad[i], strlen(bad[i]), 0) <= 0 && db.count == before);
    }
    /* A malformed entry costs only itself: wrong types, a size that is not whole, a field
     * too long to keep whole, a NUL inside a name. */
    const char *mixed =
        "{\"format\": \"clgemm-tuning-1\", \"entries\": [7, [],\n"
        " {\"device\": \"D\", \"algorithm\": \"a\", \"params\": \"P\", \"M\": \"8\", \"N\": 8,"
        "  \"K\": 8, \"gflops\": 1},\n"
        " {\"device\": \"D\", \"algorithm\": \"a\", \"params\": \"P\", \"M\": 8.5, \"N\": 8,"
        "  \"K\": 8, \"gflops\": 1},\n"
        " {\"device\": \"D\\u0000X\", \"algorithm\": \"a\", \"params\": \"P\", \"M\": 8,"
        "  \"N\": 8, \"K\": 8, \"gflops\": 1},\n"
        " {\"device\": \"D\", \"algorithm\": \"a\", \"params\": \"P\", \"M\": 8, \"N\": 8,"
        "  \"K\": 8, \"gflops\": -1},\n"
        " {\"device\": \"D\", \"algorithm\": \"a\", \"params\": \"P\", \"M\": 8.0, \"N\": 8,"
        "  \"K\": 8, \"gflops\": 2}]}\n";
    tuning_db mixed_db = { 0 };
    EXPECT(tuning_parse(&mixed_db, mixed, strlen(mixed), 0) == 1 && mixed_db.count == 1 &&
           mixed_db.items[0].M == 8 && mixed_db.items[0].gflops == 2 &&
           mixed_db.items[0].driver[0] == '\0');
    tuning_free(&mixed_db);
    char long_params[400];
    snprintf(long_params, sizeof long_params,
             "{\"format\": \"clgemm-tuning-1\", \"entries\": [{\"device\": \"D\", "
             "\"algorithm\": \"a\", \"M\": 8, \"N\": 8, \"K\": 8, \"gflops\": 1, "
             "\"params\": \"%0200d\"}]}",
             1);
    EXPECT(tuning_parse(&mixed_db, long_params, strlen(long_params), 0) == 0 &&
           mixed_db.count == 0);
    /* One document, nothing after it. */
    const char *two = "{\"format\": \"clgemm-tuning-1\"} {}";
    EXPECT(tuning_parse(&mixed_db, two, strlen(two), 0) == -1 && mixed_db.count == 0);
    tuning_free(&mixed_db);
    for (size_t cut = 0; cut < strlen(text); cut += 7) {
        tuning_db part = { 0 };
        EXPECT(tuning_parse(&part, text, cut, 0) <= 4);
        tuning_free(&part);
    }
    tuning_free(&db);
    /* Every shipped file is a tuning file with entries. */
    extern const struct embedded_kernel embedded_tuning[];
    int files = 0;
    for (const struct embedded_kernel *k = embedded_tuning; k->name; k++, files++) {
        tuning_db shipped = { 0 };
        int n = tuning_parse(&shipped, k->source, strlen(k->source), 1);
        EXPECT(n > 0);
        if (n <= 0)
            fprintf(stderr, "  tuning/%s does not parse\n", k->name);
        tuning_free(&shipped);
    }
    EXPECT(files >= 1);
}

int main(void)
{
    test_tuning();
    test_cache_entry();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
