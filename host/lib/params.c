#include "params.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where p holds the key named by key's first keylen characters, or -1. */
static int find(const params *p, const char *key, size_t keylen)
{
    for (int i = 0; i < p->count; i++)
        if (strlen(p->kv[i].key) == keylen && strncmp(p->kv[i].key, key, keylen) == 0)
            return i;
    return -1;
}

static int set(params *p, const char *key, size_t keylen, long value, errbuf *e)
{
    const int at = find(p, key, keylen);
    if (at >= 0) {
        p->kv[at].value = value;
        return 0;
    }
    if (p->count == PARAMS_MAX) {
        err_set(e, "too many parameters (at most %d)", PARAMS_MAX);
        return -1;
    }
    memcpy(p->kv[p->count].key, key, keylen);
    p->kv[p->count].key[keylen] = '\0';
    p->kv[p->count].value = value;
    p->count++;
    return 0;
}

int params_parse(params *p, const char *text, errbuf *e)
{
    /* A text that names a key twice is refused: which value meant the caller? (Parsing on
     * top of defaults replaces them; that is what set() is for.) */
    params seen = { .count = 0 };
    const char *s = text;
    while (*s) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s)
            break;
        const char *key = s;
        while (isalnum((unsigned char)*s) || *s == '_')
            s++;
        size_t keylen = (size_t)(s - key);
        if (keylen == 0 || keylen >= sizeof p->kv[0].key || *s != '=' ||
            isdigit((unsigned char)key[0])) {
            err_set(e, "bad parameter near '%.20s': expected NAME=INTEGER", key);
            return -1;
        }
        s++;
        char *end;
        errno = 0;
        long value = strtol(s, &end, 10);
        if (end == s || errno || (*end && *end != ' ' && *end != ',')) {
            err_set(e, "bad value for parameter %.*s: expected an integer", (int)keylen, key);
            return -1;
        }
        s = end;
        if (find(&seen, key, keylen) >= 0) {
            err_set(e, "parameter %.*s given twice", (int)keylen, key);
            return -1;
        }
        if (set(&seen, key, keylen, value, e) != 0 || set(p, key, keylen, value, e) != 0)
            return -1;
    }
    return 0;
}

long params_get(const params *p, const char *key, long fallback)
{
    const int at = find(p, key, strlen(key));
    return at >= 0 ? p->kv[at].value : fallback;
}

/* "PREFIXKEY=VALUE" for each key, sep between them; whether it all fit (else cut short). */
static bool join(const params *p, const char *prefix, const char *sep, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < p->count && used < size; i++) {
        int n = snprintf(out + used, size - used, "%s%s%s=%ld", i ? sep : "", prefix,
                         p->kv[i].key, p->kv[i].value);
        if (n < 0)
            return false;
        used += (size_t)n;
    }
    return used < size;
}

void params_to_defines(const params *p, char *out, size_t size)
{
    join(p, "-D", " ", out, size);
}
void params_to_text(const params *p, char *out, size_t size) { join(p, "", " ", out, size); }

int params_with(const char *text, const char *key, long value, char *out, size_t size)
{
    params p = { .count = 0 };
    errbuf e;
    if (params_parse(&p, text, &e) != 0 || set(&p, key, strlen(key), value, &e) != 0)
        return -1;
    return join(&p, "", ",", out, size) ? 0 : -1; /* text is read whole: out may be text */
}
