#include "ptx_retarget.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool blank(char c) { return c == ' ' || c == '\t'; }

/* Where a target name ends: a separator, a comment or the end of the line. */
static bool name_end(const char *p, const char *end)
{
    return p == end || blank(*p) || *p == ',' || *p == '/' || *p == '\r';
}

/* Writes the line [p, eol) (eol at its '\n' or '\r\n', or the end) into out, rewritten by the
 * rules of the header.  Returns the number of bytes written, or -1 with e set. */
static long rewrite_line(const char *p, const char *eol, char *out, int *targets,
                         bool *already_a, int *markers, errbuf *e, long lineno)
{
    const char *s = p;
    while (s < eol && blank(*s))
        s++;
    size_t indent = (size_t)(s - p), rest = (size_t)(eol - s);
    const size_t mlen = strlen(PTX_SM90A_MARKER);

    if (rest > mlen && memcmp(s, PTX_SM90A_MARKER, mlen) == 0 && blank(s[mlen])) {
        const char *payload = s + mlen + 1;
        const char *q = payload;
        while (q < eol && (blank(*q) || *q == '\r'))
            q++;
        if (q == eol) {
            err_set(e, "PTX line %ld: the marker '%s' carries no instruction", lineno,
                    PTX_SM90A_MARKER);
            return -1;
        }
        memcpy(out, p, indent);
        memcpy(out + indent, payload, (size_t)(eol - payload));
        ++*markers;
        return (long)(indent + (size_t)(eol - payload));
    }

    static const char directive[] = ".target";
    const size_t dlen = sizeof directive - 1;
    if (rest > dlen && memcmp(s, directive, dlen) == 0 && blank(s[dlen])) {
        if (++*targets > 1) {
            err_set(e, "PTX line %ld: a second .target directive", lineno);
            return -1;
        }
        const char *name = s + dlen;
        while (name < eol && blank(*name))
            name++;
        const char *n = name;
        while (!name_end(n, eol))
            n++;
        size_t nlen = (size_t)(n - name);
        bool is90 = nlen == 5 && memcmp(name, "sm_90", 5) == 0;
        bool is90a = nlen == 6 && memcmp(name, "sm_90a", 6) == 0;
        if (!is90 && !is90a) {
            err_set(e, "PTX line %ld: .target %.*s, the sm_90a post-pass needs sm_90 (Hopper)",
                    lineno, (int)(nlen > 40 ? 40 : nlen), name);
            return -1;
        }
        *already_a = is90a;
        size_t head = (size_t)(n - p);
        memcpy(out, p, head);
        size_t w = head;
        if (is90)
            out[w++] = 'a';
        memcpy(out + w, n, (size_t)(eol - n));
        return (long)(w + (size_t)(eol - n));
    }

    memcpy(out, p, (size_t)(eol - p));
    return (long)(eol - p);
}

char *ptx_retarget_sm90a(const char *ptx, size_t len, size_t *out_len, int *uncommented,
                         errbuf *e)
{
    const char *nul = memchr(ptx, '\0', len);
    const char *end = nul ? nul : ptx + len;
    /* Markers only shrink lines; the target gains one byte, once. */
    char *out = malloc((size_t)(end - ptx) + 2);
    if (!out) {
        err_set(e, "out of host memory rewriting PTX");
        return NULL;
    }
    size_t w = 0;
    int targets = 0, markers = 0;
    bool already_a = false;
    long lineno = 1;
    for (const char *p = ptx; p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        const char *eol = nl ? nl : end;
        if (eol > p && eol[-1] == '\r')
            eol--; /* the line ending is "\r\n"; it is copied below, untouched */
        long n = rewrite_line(p, eol, out + w, &targets, &already_a, &markers, e, lineno);
        if (n < 0) {
            free(out);
            return NULL;
        }
        w += (size_t)n;
        memcpy(out + w, eol, (size_t)(next - eol));
        w += (size_t)(next - eol);
        p = next;
    }
    out[w] = '\0';
    if (targets == 0) {
        err_set(e, "no .target directive: this is not PTX text (the device returned a "
                   "binary of another kind)");
        free(out);
        return NULL;
    }
    if (markers == 0 && !already_a) {
        err_set(e, "no '%s' marker line in the PTX: the Hopper instructions the kernel "
                   "carries did not arrive",
                PTX_SM90A_MARKER);
        free(out);
        return NULL;
    }
    if (out_len)
        *out_len = w;
    if (uncommented)
        *uncommented = markers;
    return out;
}

/* ---- cluster markers (see ptx_retarget.h) ---------------------------------------------- */

/* The first non-blank character of [p, eol), or eol. */
static const char *skip_blank(const char *p, const char *eol)
{
    while (p < eol && blank(*p))
        p++;
    return p;
}

static bool starts_word(const char *s, const char *eol, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(eol - s) >= n && memcmp(s, word, n) == 0 &&
           ((size_t)(eol - s) == n || blank(s[n]) || s[n] == '(' || s[n] == '\r');
}

/* Whether the line declares a kernel: ".entry name(" or ".visible .entry name(". */
static bool is_entry_line(const char *p, const char *eol)
{
    const char *s = skip_blank(p, eol);
    if (starts_word(s, eol, ".visible"))
        s = skip_blank(s + strlen(".visible"), eol);
    return starts_word(s, eol, ".entry");
}

/* Parses "X, Y, Z" (commas and/or blanks between) after a cluster marker: 0, or -1. */
static int parse_dims(const char *s, const char *eol, int dims[3])
{
    for (int i = 0; i < 3; i++) {
        while (s < eol && (blank(*s) || (i > 0 && *s == ',')))
            s++;
        if (s == eol || *s < '1' || *s > '9')
            return -1;
        int v = 0;
        while (s < eol && *s >= '0' && *s <= '9' && v <= 16)
            v = v * 10 + (*s++ - '0');
        dims[i] = v;
    }
    while (s < eol && (blank(*s) || *s == '\r'))
        s++;
    return s == eol && dims[0] * dims[1] * dims[2] <= 8 ? 0 : -1;
}

char *ptx_apply_cluster_markers(const char *ptx, size_t len, size_t *out_len, int *applied,
                                errbuf *e)
{
    const char *nul = memchr(ptx, '\0', len);
    const char *end = nul ? nul : ptx + len;
    const size_t mlen = strlen(PTX_CLUSTER_MARKER);
    /* Pass 1: each entry's dims, from its markers (entries counted from 0). */
    int (*dims)[3] = NULL, entries = 0, in_body = 0;
    long lineno = 1;
    for (const char *p = ptx; p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        const char *s = skip_blank(p, eol);
        if (is_entry_line(p, eol)) {
            int (*grown)[3] = realloc(dims, sizeof *dims * (size_t)(entries + 1));
            if (!grown) {
                free(dims);
                err_set(e, "out of host memory rewriting PTX");
                return NULL;
            }
            dims = grown;
            dims[entries][0] = 0;
            entries++;
            in_body = 0;
        } else if (entries > 0 && !in_body && s < eol && *s == '{') {
            in_body = 1;
        } else if ((size_t)(eol - s) > mlen && memcmp(s, PTX_CLUSTER_MARKER, mlen) == 0 &&
                   blank(s[mlen])) {
            int d[3];
            if (parse_dims(s + mlen, eol, d) != 0) {
                err_set(e, "PTX line %ld: a cluster marker needs three positive sizes whose "
                           "product is at most 8", lineno);
                free(dims);
                return NULL;
            }
            if (!in_body) {
                err_set(e, "PTX line %ld: a cluster marker outside a kernel's body", lineno);
                free(dims);
                return NULL;
            }
            int *k = dims[entries - 1];
            if (k[0] != 0 && (k[0] != d[0] || k[1] != d[1] || k[2] != d[2])) {
                err_set(e, "PTX line %ld: a second cluster shape for one kernel", lineno);
                free(dims);
                return NULL;
            }
            memcpy(k, d, sizeof d);
        }
        p = nl ? nl + 1 : end;
    }
    int count = 0;
    for (int i = 0; i < entries; i++)
        count += dims[i][0] != 0;
    /* Pass 2: the text, with the directive before each marked kernel's body. */
    char *out = malloc((size_t)(end - ptx) + 1 + (size_t)count * 64);
    if (!out) {
        free(dims);
        err_set(e, "out of host memory rewriting PTX");
        return NULL;
    }
    size_t w = 0;
    int k = -1;
    bool awaiting = false;
    for (const char *p = ptx; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        const char *eol = nl ? nl : end;
        const char *s = skip_blank(p, eol);
        if (is_entry_line(p, eol)) {
            k++;
            awaiting = true;
        } else if (awaiting && s < eol && *s == '{') {
            awaiting = false;
            if (dims[k][0] != 0) {
                bool crlf = eol > p && eol[-1] == '\r';
                w += (size_t)sprintf(out + w, ".reqnctapercluster %d, %d, %d%s", dims[k][0],
                                     dims[k][1], dims[k][2], crlf ? "\r\n" : "\n");
            }
        }
        memcpy(out + w, p, (size_t)(next - p));
        w += (size_t)(next - p);
        p = next;
    }
    out[w] = '\0';
    free(dims);
    if (out_len)
        *out_len = w;
    if (applied)
        *applied = count;
    return out;
}
