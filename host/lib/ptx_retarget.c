#include "ptx_retarget.h"

#include <stdbool.h>
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
