/* libFuzzer target: the tuning database reader (the shipped tuning files and the user's
 * file).  The input is read with its exact length (no NUL), as the file loader passes it.  Properties: no crash
 * or read past the end; every entry taken is complete, with NUL-terminated fields and
 * positive sizes; a lookup on what was read never fails. */
#include <math.h>
#include <string.h>

#include "fuzz_check.h"
#include "tuning.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tuning_db db = { 0 };
    int n = tuning_parse(&db, (const char *)data, size, 0);
    FUZZ_CHECK(n >= -1);
    FUZZ_CHECK(n <= 0 || (size_t)n == db.count);
    for (size_t i = 0; i < db.count; i++) {
        const tuning_entry *t = &db.items[i];
        FUZZ_CHECK(memchr(t->device, '\0', sizeof t->device) && t->device[0]);
        FUZZ_CHECK(memchr(t->algorithm, '\0', sizeof t->algorithm) && t->algorithm[0]);
        FUZZ_CHECK(memchr(t->params, '\0', sizeof t->params) && t->params[0]);
        FUZZ_CHECK(memchr(t->driver, '\0', sizeof t->driver));
        FUZZ_CHECK(t->M >= 1 && t->N >= 1 && t->K >= 1 && t->gflops > 0);
        FUZZ_CHECK(tuning_lookup(&db, t->device, t->driver, t->algorithm, t->M, t->N, t->K, NULL));
    }
    tuning_free(&db);
    return 0;
}
