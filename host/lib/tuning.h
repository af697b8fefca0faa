/* The tuning database: the best tile parameters measured per device, algorithm and size.
 *
 * JSON, as tools/tune.py writes it:
 *   {"format": "clgemm-tuning-1", "entries": [
 *     {"device": "NVIDIA H200", "driver": "580.159.04", "algorithm": "warp_tiled",
 *      "M": 4096, "N": 4096, "K": 4096, "params": "BM=128,BN=128,...", "gflops": 45210.5}, ...]}
 * Entries come from the user's file ($CLGEMM_TUNING_FILE, else
 * $XDG_CONFIG_HOME/clgemm/tuning.json, else ~/.config/clgemm/tuning.json) and from the
 * defaults shipped in tuning/ and embedded in the library; the user's win. */
#ifndef CLGEMM_TUNING_H
#define CLGEMM_TUNING_H

#include <stdbool.h>
#include <stddef.h>

#include "shape_rule.h"

typedef struct tuning_entry {
    char device[128], driver[64], algorithm[64], params[160];
    long M, N, K;
    double gflops;
    int source; /* 0 user file, 1 shipped */
} tuning_entry;

typedef struct tuning_db {
    tuning_entry *items;
    size_t count;
    shape_rules rules; /* the documents' "rules" (shape_rule.h) */
} tuning_db;

/* Pure: appends the entries (and shape rules) of one JSON text.  An entry that lacks a field or holds a malformed
 * one is skipped, never fatal; returns the number of entries taken, or -1 when the text is not a
 * tuning file (not one JSON object, or without "format": "clgemm-tuning-1"), taking none. */
int tuning_parse(tuning_db *db, const char *text, size_t len, int source);
/* The same, counting into *skipped (may be NULL) the entries and rules it left out as
 * malformed, so that a user's file can say so. */
int tuning_parse_counted(tuning_db *db, const char *text, size_t len, int source,
                         int *skipped);
void tuning_free(tuning_db *db);

/* The process-wide database (loaded once). */
const tuning_db *tuning_get(void);

/* The entry for this device and algorithm (NULL: any algorithm that `accept` takes, or any
 * when it is NULL; the fastest) nearest to the size, preferring the same driver and the
 * user's file; NULL when none. */
const tuning_entry *tuning_lookup(const tuning_db *db, const char *device, const char *driver,
                                  const char *algorithm, long M, long N, long K,
                                  bool (*accept)(const char *algorithm));

#endif
