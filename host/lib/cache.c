#include "cache.h"

#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char magic[8] = { 'C', 'L', 'G', 'E', 'M', 'M', 'B', '1' };

uint64_t fnv1a64(const void *data, size_t len, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

cache_parse_result cache_entry_parse(const unsigned char *buf, size_t len, const char *key,
                                     const unsigned char **payload, size_t *payload_len)
{
    size_t pos = 0;
    if (len < sizeof magic + 8 || memcmp(buf, magic, sizeof magic) != 0)
        return CACHE_ENTRY_CORRUPT;
    pos = sizeof magic;
    uint64_t key_len = get_u64(buf + pos);
    pos += 8;
    if (key_len > len - pos)
        return CACHE_ENTRY_CORRUPT;
    const unsigned char *stored_key = buf + pos;
    pos += (size_t)key_len;
    if (len - pos < 16)
        return CACHE_ENTRY_CORRUPT;
    uint64_t plen = get_u64(buf + pos);
    uint64_t sum = get_u64(buf + pos + 8);
    pos += 16;
    if (plen != len - pos || plen == 0 || fnv1a64(buf + pos, (size_t)plen, FNV1A64_SEED) != sum)
        return CACHE_ENTRY_CORRUPT;
    if (key_len != strlen(key) || memcmp(stored_key, key, (size_t)key_len) != 0)
        return CACHE_ENTRY_OTHER_KEY;
    *payload = buf + pos;
    *payload_len = (size_t)plen;
    return CACHE_ENTRY_OK;
}

unsigned char *cache_entry_build(const char *key, const unsigned char *payload,
                                 size_t payload_len, size_t *len)
{
    size_t key_len = strlen(key);
    *len = sizeof magic + 8 + key_len + 16 + payload_len;
    unsigned char *buf = malloc(*len);
    if (!buf)
        return NULL;
    unsigned char *p = buf;
    memcpy(p, magic, sizeof magic);
    p += sizeof magic;
    put_u64(p, key_len);
    p += 8;
    memcpy(p, key, key_len);
    p += key_len;
    put_u64(p, payload_len);
    put_u64(p + 8, fnv1a64(payload, payload_len, FNV1A64_SEED));
    memcpy(p + 16, payload, payload_len);
    return buf;
}

static char dir_path[4096];
static const char *dir_result;
static pthread_once_t dir_once = PTHREAD_ONCE_INIT;
static int warned;

/* mkdir -p; errors surface later, when the first write fails. */
static void make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    mkdir(path, 0755);
}

static void find_dir(void)
{
    const char *off = getenv("CLGEMM_NO_CACHE");
    if (off && *off && strcmp(off, "0") != 0)
        return;
    const char *dir = getenv("CLGEMM_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (dir && *dir)
        snprintf(dir_path, sizeof dir_path, "%s", dir);
    else if (xdg && *xdg)
        snprintf(dir_path, sizeof dir_path, "%s/clgemm", xdg);
    else if (home && *home)
        snprintf(dir_path, sizeof dir_path, "%s/.cache/clgemm", home);
    else
        return;
    make_dirs(dir_path);
    dir_result = dir_path;
}

const char *cache_dir(void)
{
    pthread_once(&dir_once, find_dir);
    return dir_result;
}

static void entry_path(const char *key, char *out, size_t size)
{
    snprintf(out, size, "%s/%016llx.bin", cache_dir(),
             (unsigned long long)fnv1a64(key, strlen(key), FNV1A64_SEED));
}

unsigned char *cache_load(const char *key, size_t *len)
{
    if (!cache_dir())
        return NULL;
    char path[4200];
    entry_path(key, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL, *payload = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)size)) && fread(buf, 1, (size_t)size, f) == (size_t)size) {
        const unsigned char *p;
        size_t n;
        cache_parse_result r = cache_entry_parse(buf, (size_t)size, key, &p, &n);
        if (r == CACHE_ENTRY_OK && (payload = malloc(n))) {
            memcpy(payload, p, n);
            *len = n;
        } else if (r == CACHE_ENTRY_CORRUPT) {
            remove(path); /* rebuilt and rewritten by the caller */
        }
    } else if (size >= 0) {
        remove(path); /* empty or unreadable: same as corrupt */
    }
    fclose(f);
    free(buf);
    return payload;
}

void cache_store(const char *key, const unsigned char *payload, size_t len)
{
    if (!cache_dir())
        return;
    size_t n;
    unsigned char *entry = cache_entry_build(key, payload, len, &n);
    if (!entry)
        return;
    char path[4200], tmp[4300];
    entry_path(key, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.%ld.%lx.tmp", path, (long)getpid(),
             (unsigned long)(uintptr_t)pthread_self());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(entry, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = false;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        int err = errno;
        remove(tmp);
        if (!__atomic_exchange_n(&warned, 1, __ATOMIC_SEQ_CST))
            fprintf(stderr,
                    "clgemm: warning: cannot write the kernel cache in %s (%s); running "
                    "without it\n",
                    cache_dir(), strerror(err));
    }
    free(entry);
}
