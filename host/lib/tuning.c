#include "tuning.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "kernel_sources.h"

/* Copies a JSON string member into a fixed field.  A value that is not a string, holds a NUL or
 * does not fit makes the entry unusable: cutting a device name would never match, and cutting
 * parameters would run different ones. */
static bool take_string(const json_object *entry, const char *key, char *out, size_t size)
{
    json_object *v;
    if (!json_object_object_get_ex(entry, key, &v) || !json_object_is_type(v, json_type_string))
        return false;
    const char *text = json_object_get_string(v);
    size_t len = (size_t)json_object_get_string_len(v);
    if (len >= size || strlen(text) != len)
        return false;
    memcpy(out, text, len + 1);
    return true;
}

/* M, N, K: a whole number in 1..2^31-1, written as an integer or as a double without fraction
 * (some writers print 1024.0). */
static bool take_size(const json_object *entry, const char *key, long *out)
{
    json_object *v;
    if (!json_object_object_get_ex(entry, key, &v))
        return false;
    double d;
    if (json_object_is_type(v, json_type_int))
        d = (double)json_object_get_int64(v);
    else if (json_object_is_type(v, json_type_double))
        d = json_object_get_double(v);
    else
        return false;
    if (!(d >= 1 && d <= 2147483647.0) || d != floor(d))
        return false;
    *out = (long)d;
    return true;
}

/* An entry is taken only when every field a lookup needs is there and sensible. */
static bool read_entry(const json_object *entry, tuning_entry *t)
{
    memset(t, 0, sizeof *t);
    if (!json_object_is_type(entry, json_type_object) ||
        !take_string(entry, "device", t->device, sizeof t->device) || !t->device[0] ||
        !take_string(entry, "algorithm", t->algorithm, sizeof t->algorithm) ||
        !t->algorithm[0] || !take_string(entry, "params", t->params, sizeof t->params) ||
        !t->params[0] || !take_size(entry, "M", &t->M) || !take_size(entry, "N", &t->N) ||
        !take_size(entry, "K", &t->K))
        return false;
    /* The driver is optional (older files): it only breaks ties between devices' entries. */
    json_object *v;
    if (json_object_object_get_ex(entry, "driver", &v) &&
        !take_string(entry, "driver", t->driver, sizeof t->driver))
        return false;
    if (!json_object_object_get_ex(entry, "gflops", &v) ||
        !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
        return false;
    t->gflops = json_object_get_double(v);
    return t->gflops > 0 && isfinite(t->gflops);
}

/* The text must be one JSON object (json-c's own nesting limit bounds the work) with
 * "format": "clgemm-tuning-1"; anything after it other than white space makes it malformed. */
static json_object *parse_document(const char *text, size_t len)
{
    if (len > INT_MAX)
        return NULL;
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return NULL;
    json_object *doc = json_tokener_parse_ex(tok, text, (int)len);
    size_t end = doc ? json_tokener_get_parse_end(tok) : len;
    json_tokener_free(tok);
    while (end < len && isspace((unsigned char)text[end]))
        end++;
    json_object *format;
    if (!doc || end != len || !json_object_is_type(doc, json_type_object) ||
        !json_object_object_get_ex(doc, "format", &format) ||
        !json_object_is_type(format, json_type_string) ||
        strcmp(json_object_get_string(format), "clgemm-tuning-1") != 0) {
        json_object_put(doc);
        return NULL;
    }
    return doc;
}

int tuning_parse(tuning_db *db, const char *text, size_t len, int source)
{
    return tuning_parse_counted(db, text, len, source, NULL);
}

int tuning_parse_counted(tuning_db *db, const char *text, size_t len, int source,
                         int *skipped)
{
    json_object *doc = parse_document(text, len);
    if (!doc)
        return -1;
    json_object *entries;
    int taken = 0;
    if (json_object_object_get_ex(doc, "entries", &entries) &&
        json_object_is_type(entries, json_type_array)) {
        size_t n = json_object_array_length(entries);
        tuning_entry *grown = n ? realloc(db->items, (db->count + n) * sizeof *grown) : NULL;
        if (grown) {
            db->items = grown;
            for (size_t i = 0; i < n && taken < INT_MAX; i++) {
                tuning_entry t;
                if (!read_entry(json_object_array_get_idx(entries, i), &t)) {
                    if (skipped)
                        ++*skipped;
                    continue;
                }
                t.source = source;
                db->items[db->count++] = t;
                taken++;
            }
        }
    }
    shape_rules_parse(&db->rules, doc, source, skipped);
    json_object_put(doc);
    return taken;
}

void tuning_free(tuning_db *db)
{
    free(db->items);
    db->items = NULL;
    db->count = 0;
    shape_rules_free(&db->rules);
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
        int skipped = 0;
        if (tuning_parse_counted(&global, text, (size_t)size, 0, &skipped) < 0)
            fprintf(stderr,
                    "clgemm: warning: %s is not a clgemm tuning file (or not valid JSON); "
                    "ignored\n",
                    path);
        else if (skipped > 0) /* a field missing or out of range (host/lib/shape_rule.h) */
            fprintf(stderr,
                    "clgemm: warning: %s: ignored %d malformed %s (a field missing or out of "
                    "range)\n",
                    path, skipped, skipped == 1 ? "entry or rule" : "entries or rules");
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
