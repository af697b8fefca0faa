#include "ptx_maxnreg.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_blank(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* Whether [p, end) starts with the token tok (followed by a blank, '(' or the end). */
static bool token(const char *p, const char *end, const char *tok)
{
    size_t n = strlen(tok);
    if ((size_t)(end - p) < n || memcmp(p, tok, n) != 0)
        return false;
    return p + n == end || p[n] == ' ' || p[n] == '\t' || p[n] == '(' || p[n] == '\r';
}

static bool entry_line(const char *p, const char *end)
{
    p = skip_blank(p, end);
    if (token(p, end, ".visible"))
        p = skip_blank(p + strlen(".visible"), end);
    return token(p, end, ".entry");
}

char *ptx_cap_registers(const char *ptx, size_t len, int maxnreg, size_t *out_len, int *entries,
                        errbuf *e)
{
    if (maxnreg < PTX_MAXNREG_MIN || maxnreg > PTX_MAXNREG_MAX) {
        err_set(e, "a register cap of %d: PTX's .maxnreg takes %d to %d", maxnreg,
                PTX_MAXNREG_MIN, PTX_MAXNREG_MAX);
        return NULL;
    }
    const char *nul = memchr(ptx, '\0', len);
    const char *end = nul ? nul : ptx + len;
    /* Count the entries first: each adds one line of at most 16 bytes. */
    size_t found = 0;
    for (const char *p = ptx; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        found += entry_line(p, nl ? nl : end);
        p = next;
    }
    if (found == 0) {
        err_set(e, "no .entry in the PTX: nothing to cap (not PTX text, or no kernel)");
        return NULL;
    }
    char *out = malloc((size_t)(end - ptx) + 24 * found + 1);
    if (!out) {
        err_set(e, "out of host memory rewriting PTX");
        return NULL;
    }
    size_t w = 0;
    int capped = 0;
    bool in_header = false;
    long lineno = 1;
    for (const char *p = ptx; p < end; lineno++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        const char *eol = nl ? nl : end;
        const char *s = skip_blank(p, eol);
        if (entry_line(p, eol)) {
            if (in_header)
                break; /* the entry before has no body */
            in_header = true;
        } else if (in_header && token(s, eol, ".maxnreg")) {
            err_set(e, "PTX line %ld: the entry already has a .maxnreg", lineno);
            free(out);
            return NULL;
        } else if (in_header && s < eol && *s == '{') {
            const char *ending = eol > p && eol[-1] == '\r' ? "\r\n" : "\n";
            w += (size_t)sprintf(out + w, ".maxnreg %d%s", maxnreg, ending);
            in_header = false;
            capped++;
        }
        memcpy(out + w, p, (size_t)(next - p));
        w += (size_t)(next - p);
        p = next;
    }
    if (in_header) { /* an entry without a body (the loop stopped there, or the text ended) */
        err_set(e, "an .entry of the PTX has no body ('{' line) to cap");
        free(out);
        return NULL;
    }
    out[w] = '\0';
    if (out_len)
        *out_len = w;
    if (entries)
        *entries = capped;
    return out;
}
