/* The on-disk cache of compiled programs: one file per (device, driver, source, options).
 *
 * An entry is self-checking, so a truncated or corrupted file is detected and rebuilt:
 *   "CLGEMMB1"  8-byte magic
 *   u64 key length, key bytes       the full key, compared, not just its hash
 *   u64 payload length, u64 FNV-1a 64 checksum of the payload, payload bytes
 * (integers little-endian).  Files are written to a temporary name and renamed, so a reader
 * never sees half an entry from a concurrent writer. */
#ifndef CLGEMM_CACHE_H
#define CLGEMM_CACHE_H

#include <stddef.h>
#include <stdint.h>

uint64_t fnv1a64(const void *data, size_t len, uint64_t seed);
#define FNV1A64_SEED 0xcbf29ce484222325ull

typedef enum cache_parse_result {
    CACHE_ENTRY_OK,
    CACHE_ENTRY_CORRUPT,   /* bad magic, lengths past the end, checksum mismatch */
    CACHE_ENTRY_OTHER_KEY, /* a valid entry for another key (a hash collision) */
} cache_parse_result;

/* Pure: checks an entry's bytes against the expected key; on success points payload into buf. */
cache_parse_result cache_entry_parse(const unsigned char *buf, size_t len, const char *key,
                                     const unsigned char **payload, size_t *payload_len);
/* Serialises an entry; caller frees. */
unsigned char *cache_entry_build(const char *key, const unsigned char *payload,
                                 size_t payload_len, size_t *len);

/* The cache directory (created on first use), or NULL when CLGEMM_NO_CACHE is set. */
const char *cache_dir(void);

/* The payload stored for key (caller frees), or NULL on a miss.  A corrupt entry counts as a
 * miss and is removed. */
unsigned char *cache_load(const char *key, size_t *len);
/* Best effort: an unwritable directory produces one warning per process, then silence. */
void cache_store(const char *key, const unsigned char *payload, size_t len);

#endif
