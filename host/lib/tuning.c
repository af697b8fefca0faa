#include "tuning.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_sources.h"

/* A small JSON reader: enough to walk {"entries": [ {flat object}, ... ]} and to skip any
 * other value safely.  Every step checks the end of the text; nesting is bounded. */
typedef struct reader {
    const char *s, *end;
    int depth;
} reader;

static void skip_ws(reader *r)
{
    while (r->s < r->end && isspace((unsigned char)*r->s))
        r->s++;
}

static bool eat(reader *r, char c)
{
    skip_ws(r);
    if (r->s < r->end && *r->s == c) {
        r->s++;
        return true;
    }
    return false;
}

/* Reads a string into out (cut to size; non-ASCII escapes become '?'). */
static bool read_string(reader *r, char *out, size_t size)
{
    skip_ws(r);
    if (r->s >= r->end || *r->s != '"')
        return false;
    r->s++;
    size_t n = 0;
    while (r->s < r->end && *r->s != '"') {
        char c = *r->s++;
        if (c == '\\') {
            if (r->s >= r->end)
                return false;
            char esc = *r->s++;
            switch (esc) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u':
                if (r->end - r->s < 4)
                    return false;
                r->s += 4;
                c = '?';
                break;
            default: c = esc; break;
            }
        }
        if (n + 1 < size)
            out[n++] = c;
    }
    if (r->s >= r->end)
        return false;
    r->s++;
    if (size)
        out[n] = '\0';
    return true;
}

static bool read_number(reader *r, double *v)
{
    skip_ws(r);
    char buf[64];
    size_t n = 0;
    while (r->s < r->end && n + 1 < sizeof buf && strchr("+-0123456789.eE", *r->s))
        buf[n++] = *r->s++;
    buf[n] = '\0';
    char *end;
    *v = strtod(buf, &end);
    return n > 0 && *end == '\0';
}

static bool skip_value(reader *r);

static bool skip_container(reader *r, char open, char close)
{
    if (!eat(r, open) || ++r->depth > 32)
        return false;
    if (eat(r, close)) {
        r->depth--;
        return true;
    }
    do {
        char key[8];
        if (open == '{' && (!read_string(r, key, sizeof key) || !eat(r, ':')))
            return false;
        if (!skip_value(r))
            return false;
    } while (eat(r, ','));
    r->depth--;
    return eat(r, close);
}

static bool skip_value(reader *r)
{
    skip_ws(r);
    if (r->s >= r->end)
        return false;
    char c = *r->s;
    if (c == '{')
        return skip_container(r, '{', '}');
    if (c == '[')
        return skip_container(r, '[', ']');
    if (c == '"') {
        char tmp[1];
        return read_string(r, tmp, 0);
    }
    for (const char *word = "true\0false\0null\0"; *word; word += strlen(word) + 1) {
        size_t n = strlen(word);
        if ((size_t)(r->end - r->s) >= n && strncmp(r->s, word, n) == 0) {
            r->s += n;
            return true;
        }
    }
    double v;
    return read_number(r, &v);
}

static bool read_entry(reader *r, tuning_entry *t)
{
    memset(t, 0, sizeof *t);
    t->gflops = NAN;
    if (!eat(r, '{'))
        return false;
    if (eat(r, '}'))
        return true;
    do {
        char key[32];
        if (!read_string(r, key, sizeof key) || !eat(r, ':'))
            return false;
        char *field = strcmp(key, "device") == 0      ? t->device
                      : strcmp(key, "driver") == 0    ? t->driver
                      : strcmp(key, "algorithm") == 0 ? t->algorithm
                      : strcmp(key, "params") == 0    ? t->params
                                                      : NULL;
        size_t size = field == t->device ? sizeof t->device
                      : field == t->driver ? sizeof t->driver
                      : field == t->algorithm ? sizeof t->algorithm
                                              : sizeof t->params;
        double v;
        if (field) {
            if (!read_string(r, field, size))
                return false;
        } else if (strcmp(key, "M") == 0 || strcmp(key, "N") == 0 || strcmp(key, "K") == 0 ||
                   strcmp(key, "gflops") == 0) {
            if (!read_number(r, &v))
                return false;
            if (key[0] == 'g')
                t->gflops = v;
            else if (v >= 1 && v <= 2147483647.0)
                *(key[0] == 'M' ? &t->M : key[0] == 'N' ? &t->N : &t->K) = (long)v;
        } else if (!skip_value(r)) {
            return false;
        }
    } while (eat(r, ','));
    return eat(r, '}');
}

int tuning_parse(tuning_db *db, const char *text, size_t len, int source)
{
    reader r = { text, text + len, 0 };
    if (!eat(&r, '{'))
        return -1;
    int taken = 0;
    bool is_tuning = false;
    if (eat(&r, '}'))
        return -1;
    do {
        char key[32];
        if (!read_string(&r, key, sizeof key) || !eat(&r, ':'))
            return is_tuning ? taken : -1;
        if (strcmp(key, "format") == 0) {
            char fmt[32];
            if (!read_string(&r, fmt, sizeof fmt))
                return -1;
            is_tuning = is_tuning || strcmp(fmt, "clgemm-tuning-1") == 0;
        } else if (strcmp(key, "entries") == 0) {
            if (!eat(&r, '['))
                return -1;
            if (!eat(&r, ']')) {
                do {
                    tuning_entry t;
                    if (!read_entry(&r, &t))
                        return is_tuning ? taken : -1;
                    /* Only complete entries count. */
                    if (!t.device[0] || !t.algorithm[0] || !t.params[0] || !t.M || !t.N ||
                        !t.K || !(t.gflops > 0))
                        continue;
                    tuning_entry *grown = realloc(db->items, (db->count + 1) * sizeof *grown);
                    if (!grown)
                        return taken;
                    db->items = grown;
                    t.source = source;
                    db->items[db->count++] = t;
                    taken++;
                } while (eat(&r, ','));
                if (!eat(&r, ']'))
                    return is_tuning ? taken : -1;
            }
        } else if (!skip_value(&r)) {
            return is_tuning ? taken : -1;
        }
    } while (eat(&r, ','));
    return is_tuning ? taken : -1;
}

void tuning_free(tuning_db *db)
{
    free(db->items);
    db->items = NULL;
    db->count = 0;
}

static tuning_db global;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    char *text = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && size < (64 << 20) &&
        fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)size)) &&
        fread(text, 1, (size_t)size, f) == (size_t)size) {
        if (tuning_parse(&global, text, (size_t)size, 0) < 0)
            fprintf(stderr, "clgemm: warning: %s is not a clgemm tuning file; ignored\n", path);
    }
    free(text);
    fclose(f);
}

static void load(void)
{
    char path[4096];
    const char *file = getenv("CLGEMM_TUNING_FILE");
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (file && *file)
        snprintf(path, sizeof path, "%s", file);
    else if (xdg && *xdg)
        snprintf(path, sizeof path, "%s/clgemm/tuning.json", xdg);
    else if (home && *home)
        snprintf(path, sizeof path, "%s/.config/clgemm/tuning.json", home);
    else
        path[0] = '\0';
    if (path[0])
        load_file(path);
    for (const struct embedded_kernel *k = embedded_tuning; k->name; k++)
        tuning_parse(&global, k->source, strlen(k->source), 1);
}

const tuning_db *tuning_get(void)
{
    pthread_once(&once, load);
    return &global;
}

/* Distance between sizes on a log scale, so 1000 is as near 1024 as 4000 is to 4096. */
static double size_distance(const tuning_entry *t, long M, long N, long K)
{
    return fabs(log((double)M / t->M)) + fabs(log((double)N / t->N)) +
           fabs(log((double)K / t->K));
}

const tuning_entry *tuning_lookup(const tuning_db *db, const char *device, const char *driver,
                                  const char *algorithm, long M, long N, long K,
                                  bool (*accept)(const char *algorithm))
{
    const tuning_entry *best = NULL;
    double best_score = INFINITY;
    for (size_t i = 0; i < db->count; i++) {
        const tuning_entry *t = &db->items[i];
        if (strcmp(t->device, device) != 0 || (algorithm && strcmp(t->algorithm, algorithm) != 0) ||
            (!algorithm && accept && !accept(t->algorithm)))
            continue;
        /* Nearest size first; then the same driver and the user's file break near-ties; among
         * algorithms at one size the fastest wins. */
        double score = size_distance(t, M, N, K) * 1000.0 +
                       (strcmp(t->driver, driver) != 0) * 0.5 + t->source * 0.25 -
                       (algorithm ? 0.0 : fmin(t->gflops, 1e9) * 1e-12);
        if (score < best_score) {
            best_score = score;
            best = t;
        }
    }
    return best;
}
