#include "shape_rule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


static bool get_string(const json_object *o, const char *key, char *out, size_t size)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return false;
    const char *s = json_object_get_string(v);
    const size_t len = (size_t)json_object_get_string_len(v);
    if (len >= size || strlen(s) != len)
        return false;
    memcpy(out, s, len + 1);
    return true;
}

/* A number, or absent (then *out keeps its default); false when present but not a number. */
static bool get_number(const json_object *o, const char *key, double *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v))
        return true;
    if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
        return false;
    *out = json_object_get_double(v);
    return isfinite(*out);
}

static bool read_rule(const json_object *o, shape_rule *r)
{
    memset(r, 0, sizeof *r);
    char dtype[16], trans[8], trans_a[8] = "";
    double m_max = 0, per_cu = 0, kmin = 0, slice_k = 0, partial_k = 0, groups = 1, rest = -1;
    if (!json_object_is_type(o, json_type_object) ||
        !get_string(o, "device", r->device, sizeof r->device) || !r->device[0] ||
        !get_string(o, "purpose", r->purpose, sizeof r->purpose) ||
        !get_string(o, "algorithm", r->algorithm, sizeof r->algorithm) ||
        !get_string(o, "params", r->params, sizeof r->params) ||
        !get_string(o, "dtype", dtype, sizeof dtype) ||
        !get_string(o, "trans", trans, sizeof trans) || !get_number(o, "m_max", &m_max) ||
        !get_number(o, "split_per_cu", &per_cu) || !get_number(o, "split_kmin", &kmin) ||
        !get_number(o, "split_slice_k", &slice_k) ||
        !get_number(o, "split_partial_k", &partial_k) ||
        !get_number(o, "groups_per_cu", &groups) || !get_number(o, "split_rest", &rest) ||
        !get_number(o, "wide_round", &r->wide_round))
        return false;
    json_object *v;
    if (json_object_object_get_ex(o, "driver", &v) &&
        !get_string(o, "driver", r->driver, sizeof r->driver))
        return false;
    if (json_object_object_get_ex(o, "measured", &v) &&
        !get_string(o, "measured", r->measured, sizeof r->measured))
        return false;
    if (json_object_object_get_ex(o, "wide_params", &v) &&
        (!get_string(o, "wide_params", r->wide_params, sizeof r->wide_params) ||
         !(r->wide_round > 0 && r->wide_round <= 1e6)))
        return false;
    if (json_object_object_get_ex(o, "wide_split", &v)) {
        if (!json_object_is_type(v, json_type_boolean) || !r->wide_params[0])
            return false;
        r->wide_split = json_object_get_boolean(v);
    }
    if (json_object_object_get_ex(o, "wide_min_per_cu", &v) &&
        (!r->wide_params[0] || !get_number(o, "wide_min_per_cu", &r->wide_min_per_cu) ||
         !(r->wide_min_per_cu >= 0 && r->wide_min_per_cu <= 1e3)))
        return false;
    if (json_object_object_get_ex(o, "trans_a", &v) &&
        !get_string(o, "trans_a", trans_a, sizeof trans_a))
        return false;
    if (json_object_object_get_ex(o, "batch", &v)) {
        if (!json_object_is_type(v, json_type_boolean))
            return false;
        r->batch = json_object_get_boolean(v);
    }
    r->dtype = -1;
    for (int t = CLGEMM_F32; t <= CLGEMM_BF16; t++)
        if (strcmp(dtype, clgemm_dtype_name((clgemm_dtype)t)) == 0)
            r->dtype = t;
    r->trans = strcmp(trans, "NN") == 0 ? 0 : strcmp(trans, "NT") == 0 ? 1
               : strcmp(trans, "any") == 0 ? -1 : -2;
    r->trans_a = !trans_a[0] ? -1 : strcmp(trans_a, "N") == 0 ? 0
                 : strcmp(trans_a, "T") == 0 ? 1 : -2;
    if (r->dtype < 0 || r->trans < -1 || r->trans_a < -1 || !(m_max >= 1 && m_max <= 2147483647.0) ||
        m_max != floor(m_max) || !(per_cu >= 0 && per_cu <= 1e6) ||
        !(kmin >= 0 && kmin <= 2147483647.0) || !(slice_k >= 0 && slice_k <= 1e6) ||
        !(partial_k >= 0 && partial_k <= 1e6) || !(groups >= 1 && groups <= 64) ||
        groups != floor(groups) || !(rest == -1 || (rest >= 0 && rest <= 100)))
        return false;
    r->m_max = (long)m_max;
    r->split_per_cu = per_cu;
    r->split_kmin = (long)kmin;
    r->split_slice_k = slice_k;
    r->split_partial_k = partial_k;
    r->groups_per_cu = (int)groups;
    r->split_rest = rest;
    r->has_split_rest = rest >= 0;
    return true;
}

int shape_rules_parse(shape_rules *rules, const json_object *doc, int source, int *skipped)
{
    json_object *list;
    if (!json_object_object_get_ex(doc, "rules", &list) ||
        !json_object_is_type(list, json_type_array))
        return 0;
    const size_t n = json_object_array_length(list);
    shape_rule *grown = n ? realloc(rules->items, (rules->count + n) * sizeof *grown) : NULL;
    if (!grown)
        return 0;
    rules->items = grown;
    int taken = 0;
    for (size_t i = 0; i < n; i++) {
        shape_rule r;
        if (!read_rule(json_object_array_get_idx(list, i), &r)) {
            if (skipped)
                ++*skipped;
            continue;
        }
        r.source = source;
        rules->items[rules->count++] = r;
        taken++;
    }
    return taken;
}

void shape_rules_free(shape_rules *rules)
{
    free(rules->items);
    rules->items = NULL;
    rules->count = 0;
}

/* A rule's rank among those that apply: the device's own rules first, then the tightest
 * class, then the same driver, B's layout named exactly, A's named, the user's file. */
static double rule_score(const shape_rule *r, const char *device, const char *driver)
{
    return (strcmp(r->device, device) == 0 ? 0 : 1e12) + (double)r->m_max * 16 +
           (strcmp(r->driver, driver) != 0) * 8 + (r->trans < 0) * 4 + (r->trans_a < 0) * 2 +
           r->source;
}

/* Whether the rule is for this device, purpose, element type and layouts (M aside). */
static bool rule_matches(const shape_rule *r, const char *device, const char *purpose, int dtype,
                         bool trans_a, bool trans_b)
{
    return (strcmp(r->device, device) == 0 || strcmp(r->device, "*") == 0) &&
           strcmp(r->purpose, purpose) == 0 && r->dtype == dtype &&
           (r->trans < 0 || r->trans == (int)trans_b) &&
           (r->trans_a < 0 || r->trans_a == (int)trans_a);
}

static bool rule_applies(const shape_rule *r, const char *device, const char *purpose, int dtype,
                         bool trans_a, bool trans_b, bool batched, long M, long N)
{
    return rule_matches(r, device, purpose, dtype, trans_a, trans_b) && M <= r->m_max &&
           r->batch == batched && (batched || N >= 4 * r->m_max);
}

long shape_rule_batch_m_max(const shape_rules *rules, const char *device, const char *purpose,
                            int dtype, bool trans_a, bool trans_b)
{
    long most = 0;
    for (size_t i = 0; i < rules->count; i++) {
        const shape_rule *r = &rules->items[i];
        if (r->batch && rule_matches(r, device, purpose, dtype, trans_a, trans_b) &&
            r->m_max > most)
            most = r->m_max;
    }
    return most;
}

const shape_rule *shape_rule_lookup_ranked(const shape_rules *rules, const char *device,
                                           const char *driver, const char *purpose, int dtype,
                                           bool trans_a, bool trans_b, bool batched, long M,
                                           long N, int rank)
{
    /* Walks the order (score, then position) rank + 1 times from the last rule taken. */
    const shape_rule *best = NULL;
    double prev_score = -INFINITY;
    size_t prev_at = 0;
    for (int step = 0; step <= rank; step++) {
        best = NULL;
        double best_score = INFINITY;
        size_t best_at = 0;
        for (size_t i = 0; i < rules->count; i++) {
            const shape_rule *r = &rules->items[i];
            if (!rule_applies(r, device, purpose, dtype, trans_a, trans_b, batched, M, N))
                continue;
            const double score = rule_score(r, device, driver);
            const bool after = score > prev_score || (score == prev_score && i > prev_at);
            if (after && (score < best_score || (score == best_score && i < best_at))) {
                best_score = score;
                best_at = i;
                best = r;
            }
        }
        if (!best)
            return NULL;
        prev_score = best_score;
        prev_at = best_at;
    }
    return best;
}

const shape_rule *shape_rule_lookup(const shape_rules *rules, const char *device,
                                    const char *driver, const char *purpose, int dtype,
                                    bool trans_a, bool trans_b, bool batched, long M, long N)
{
    return shape_rule_lookup_ranked(rules, device, driver, purpose, dtype, trans_a, trans_b,
                                    batched, M, N, 0);
}

/* Whether s slices of K, each floor(K / s) rounded down to 8 values (as splitk.c cuts), leave
 * no rest: one launch. */
static bool cuts_evenly(long K, long s) { return K % (8 * s) == 0; }

/* A count that leaves a shorter last slice pays this share of one unsplit round.  It was the
 * second launch's cost while that slice was about as long as the others (probe83 in
 * bench/results/2026-11-26_nvidia-h100/probes: about 0.035 ms more than the even share at
 * 100x3000x777); since splitk.c cuts the rest short (under 8 values per slice) that launch
 * costs next to nothing (probe183 in bench/results/2026-11-27_nvidia-h100/probes: 3 slices
 * at 128x4096x4096 0.298 -> 0.168 ms, where the model, without this term, expects 0.161).
 * The term stays: at short K the model, which counts one group per SM where step 7 runs two,
 * favours too few slices, and this keeps it on the even cuts that measured faster there
 * (200x3000x1000 N T: 2 slices 0.087 ms, 5 even ones 0.074; with the term at 0.1 or less the
 * model takes 2).  Skipping such counts left every K without an even cut (777, or 1000
 * beyond K / split_kmin) unsplit, at 2-3.6x the time.  tools/tune_rules.py's rounds_choice
 * fits the model with the same term (its SPLIT_UNEVEN_ROUNDS). */
#define SPLIT_UNEVEN_ROUNDS 0.4

/* split_slice_k's model (shape_rule.h): measured on the H100 at ten M <= 128 shapes with every
 * split 1..16 of step 7, it named the fastest at each (bench/results/2026-11-24_nvidia-h100/
 * splits/). */
double shape_rule_split_cost(const shape_rule *r, unsigned compute_units, long tiles, long K,
                             long s, bool uneven)
{
    if (tiles < 1 || compute_units < 1 || K < 1 || s < 1)
        return INFINITY;
    /* A round is every unit's resident groups at once (groups_per_cu; 0 in a rule built by
     * hand rather than parsed counts as 1). */
    const long units = (long)compute_units * (r->groups_per_cu > 1 ? r->groups_per_cu : 1);
    const long rounds = (tiles * s + units - 1) / units;
    const bool second_launch = !uneven && s > 1 && !cuts_evenly(K, s);
    const double rest_cost = r->has_split_rest ? r->split_rest : SPLIT_UNEVEN_ROUNDS;
    /* The partial products: s of every block written, read back, C written once. */
    const double partials = s > 1 ? (double)(2 * s + 1) * (double)tiles * r->split_partial_k /
                                        ((double)units * (double)K)
                                  : 0.0;
    return (double)rounds / (double)s * (1.0 + (double)s * r->split_slice_k / (double)K) +
           partials + (second_launch ? rest_cost : 0.0);
}

static int split_by_rounds(const shape_rule *r, unsigned compute_units, long tiles, long K,
                           bool uneven)
{
    long most = r->split_kmin > 0 ? K / r->split_kmin : 32;
    if (most > 32)
        most = 32;
    int best = 1;
    double best_cost = INFINITY;
    for (long s = 1; s <= most; s++) {
        const double cost = shape_rule_split_cost(r, compute_units, tiles, K, s, uneven);
        if (cost < best_cost * (1.0 - 1e-9)) { /* ties keep the fewer slices */
            best_cost = cost;
            best = (int)s;
        }
    }
    return best;
}

bool shape_rule_wide(const shape_rule *r, unsigned compute_units, long tiles, int split, long K,
                     bool uneven, long wide_tiles, int wide_split, double *own, double *wide)
{
    const double mine = shape_rule_split_cost(r, compute_units, tiles, K, split, uneven);
    const bool busy_enough = (double)wide_tiles >= r->wide_min_per_cu * (double)compute_units;
    const double theirs =
        r->wide_params[0] && busy_enough
            ? shape_rule_split_cost(r, compute_units, wide_tiles, K, wide_split, uneven) *
                  r->wide_round
            : INFINITY;
    if (own)
        *own = mine;
    if (wide)
        *wide = theirs;
    return theirs < mine;
}

int shape_rule_wide_split(const shape_rule *r, unsigned compute_units, long wide_tiles, long K,
                          bool uneven)
{
    return r->wide_split ? shape_rule_split(r, compute_units, wide_tiles, K, uneven) : 1;
}

int shape_rule_split(const shape_rule *r, unsigned compute_units, long tiles, long K,
                     bool uneven)
{
    if (tiles < 1 || compute_units < 1)
        return 1;
    if (r->split_slice_k > 0)
        return split_by_rounds(r, compute_units, tiles, K, uneven);
    if (r->split_per_cu <= 0)
        return 1;
    const double want = r->split_per_cu * compute_units;
    if (tiles >= want)
        return 1;
    /* To nearest: the tuner wrote split_per_cu = S x tiles / CUs (rounded) from the S it
     * measured, and must get that S back at the shape it measured (a ceiling turned 4.001
     * into 5 slices). */
    long s = lround(want / (double)tiles);
    const long most = r->split_kmin > 0 ? K / r->split_kmin : 32;
    if (s > most)
        s = most;
    if (s > 32)
        s = 32;
    /* A rule that asks for at most one wave of blocks never gets a second, barely begun: the
     * kernels it names run one group per SM, and 3 slices of 48 blocks lost to 2 on the H100
     * (bench/results/2026-11-24_nvidia-h100/ksplit/probe_sum.txt). */
    if (r->split_per_cu <= 1.0 && s * tiles > (long)compute_units)
        s = (long)compute_units / tiles;
    if (uneven) /* one launch takes a shorter last slice */
        return s > 1 ? (int)s : 1;
    /* Slices of equal length run as one launch; a shorter last one is a second launch (and
     * on NVIDIA's OpenCL each launch costs microseconds that a small GEMM does not have), so
     * the nearest count within half of s that cuts K evenly, where there is one. */
    for (long d = 0; s > 1 && d <= s / 2; d++)
        for (int sign = -1; sign <= 1; sign += 2) {
            const long t = s + sign * d;
            if (t > 1 && t <= most && t <= 32 && cuts_evenly(K, t))
                return (int)t;
        }
    return s > 1 ? (int)s : 1;
}

const char *shape_tf32_registers_form(long M, long N, int bm, int bn, bool split)
{
    if (bm != 128 || (bn <= 128 && !split))
        return NULL;
    return N > M ? "PACKA=3,SETMAXNREG=1,SWAP=1" : "PACKA=3,SETMAXNREG=1";
}

/* Rounding A in registers saves A's pass, and costs the kernel a little (PACKA=3 with the
 * producer's registers at 4096^3: 0.398 ms, PACKA=1 with its pass 0.409-0.412).  Where A is
 * copied anyway the saving is gone and the cost stays: TF32 4095^3 with tight leading
 * dimensions 0.448 against 0.419 with A rounded by its copy (PACKA=1, without SETMAXNREG,
 * which cost 0.434 there: C's rows off 16 bytes are stored element-wise; probe297 in
 * bench/results/2026-11-28_nvidia-h200/probes). */
const char *shape_tf32_copied_a_form(const char *form)
{
    if (strcmp(form, "PACKA=3,SETMAXNREG=1,SWAP=1") == 0)
        return "PACKA=1,SWAP=1";
    if (strcmp(form, "PACKA=3,SETMAXNREG=1") == 0)
        return "PACKA=1";
    return NULL;
}
