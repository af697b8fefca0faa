/* The shape rule: what auto and the purpose names run for a class of shapes.
 *
 * A GEMM's best kernel depends on its shape more than on its size: with M = 1 it is a stream
 * of B (step 11, skinny); where M x N holds too few tiles to fill the device, K is split
 * (host/lib/splitk.c); elsewhere the usual tiles win.  The classes and what runs in each come
 * from measurements (tools/tune.py --rules on the device), stored in the tuning database
 * (the "rules" of tuning/ files):
 *   {"device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04", "purpose": "tensor_core",
 *    "dtype": "bf16", "trans": "NT", "m_max": 16, "algorithm": "skinny",
 *    "params": "WG=256,KT=32,RN=4,UNROLL=2,BM=16", "split_per_cu": 0, "split_kmin": 0,
 *    "measured": "16x28672x4096", "gbps": 1180.2}
 * A call of M rows takes, among the rules of its device (then of device "*", any device),
 * purpose ("auto" for fp32 auto, else the purpose name), element type and layout of B
 * (trans "NN": B stored K x N, "NT": N x K, "any") and, where the rule names it, of A
 * ("trans_a": "N" stored M x K, "T" K x M; absent: either), the one with the smallest
 * m_max >= M (at the same m_max, one naming A's layout before one that does not);
 * M beyond every m_max keeps the default choice (so 4096^3 does not change).  A class is of
 * skinny shapes, as its rule was measured: N at least 4 x m_max (a 100^3 problem keeps the
 * choice tuned for its size, although M <= 128).  The rule's split: where its kernel's M x N
 * tiles are fewer than split_per_cu x compute units, K is cut into S = ceil(that / tiles)
 * slices, at most K / split_kmin of them (and 32).  A rule with "split_slice_k": L > 0 instead
 * picks the S that minimises rounds(S) / S x (1 + S x L / K) (plus a second launch's share
 * where S leaves a shorter last slice), rounds(S) = ceil(tiles x S / compute units) the
 * blocks the busiest compute unit runs: for a kernel whose time is its arithmetic
 * (step 7 at M <= 128) what counts is how evenly the blocks share the units, and each slice
 * costs about L more values of K (its pipeline filled again, its partial product stored and
 * read back).  Its "split_partial_k": P adds (2S + 1) x tiles x P / (compute units x K) to a
 * split's cost (S > 1): the partial products moved through the device as a whole, all slices
 * written, read back and C written, each block's pass as dear as P values of K; unlike L it
 * grows with the blocks, not with the rounds, so that where M x N is large a split whose
 * rounds save a little loses to the traffic (fp32 128 x 28672 x 4096 on step 7 swapped ran
 * 0.758 ms unsplit and 0.829 in 4 slices, probe170).  Its "groups_per_cu": G (default 1)
 * counts a round as G groups per compute unit, for a kernel that runs G at once (step 11's
 * fp32 N T at M <= 16 runs two: with one, no L and P named the fastest count at even half
 * of probe278's 13 widths and depths; with two, L = 256 and P = 160 name it at 12).  Its
 * "split_rest": R (default 0.4, SPLIT_UNEVEN_ROUNDS in shape_rule.c) is what a count that
 * leaves a rest of K, run as a second launch, costs in rounds where the kernel is not split
 * in one launch.  A rule may name a wider tile beside its
 * own ("wide_params": parameters of the same step, "wide_round": W): a call runs it (unsplit,
 * or split by the rule's model with "wide_split": true) where its cost, W times what the
 * model charges its blocks, is below the rule's tile's at the split it chose
 * (shape_rule_wide); with "wide_min_per_cu": F, only where the wide form has at least F blocks
 * per compute unit (a form that pays only once the SMs are mostly busy: the 16-bit M <= 16
 * tile's shallower ring, which loses where 64 blocks stream a long K on 132 SMs and wins from
 * 80).  A rule with "batch": true is for strided batches alone
 * (clgemm_gemm_desc.batch > 1), and never splits. */
#ifndef CLGEMM_SHAPE_RULE_H
#define CLGEMM_SHAPE_RULE_H

#include <stdbool.h>

#include <json-c/json.h>

#include "clgemm.h"

typedef struct shape_rule {
    char device[128], driver[64], purpose[32], algorithm[64], params[160], measured[64];
    int dtype;          /* clgemm_dtype */
    int trans;          /* B's layout: 0 NN (K x N), 1 NT (N x K), -1 any */
    int trans_a;        /* A's layout: 0 N (M x K), 1 T (K x M), -1 either */
    long m_max;
    double split_per_cu; /* 0: never split */
    long split_kmin;
    double split_slice_k; /* > 0: split by rounds of blocks per compute unit (see above) */
    double split_partial_k; /* with split_slice_k: what moving the partial products costs */
    int groups_per_cu;  /* with split_slice_k: the kernel's groups one CU runs at once (1) */
    double split_rest;  /* with split_slice_k and has_split_rest: a rest of K's cost in rounds */
    bool has_split_rest; /* false (a rule without "split_rest"): SPLIT_UNEVEN_ROUNDS */
    char wide_params[160]; /* "": none; else a wider tile's form (see shape_rule_wide) */
    double wide_round;  /* with wide_params: its round's cost in the rule's unsplit rounds */
    bool wide_split;    /* the wide form splits K as the rule does ("wide_split": true) */
    double wide_min_per_cu; /* > 0: the wide form only from this many of its blocks per CU */
    bool batch;         /* a class of strided batches ("batch": true): M, N of each problem */
    int source;         /* 0 user file, 1 shipped */
} shape_rule;

typedef struct shape_rules {
    shape_rule *items;
    size_t count;
} shape_rules;

/* Appends the "rules" of one tuning document; a malformed rule is skipped (counted into
 * *skipped where not NULL).  Returns how many were taken. */
int shape_rules_parse(shape_rules *rules, const json_object *doc, int source, int *skipped);
void shape_rules_free(shape_rules *rules);

/* The rule for a call of M x N (NULL: none, the default choice).  A batch (batched) takes
 * only the rules marked "batch": true, whose classes are of the problems' M alone (a batch
 * of 128 x 128 problems is no skinny shape, yet fills the device); a single GEMM never takes
 * them. */
const shape_rule *shape_rule_lookup(const shape_rules *rules, const char *device,
                                    const char *driver, const char *purpose, int dtype,
                                    bool trans_a, bool trans_b, bool batched, long M, long N);
/* The rank-th rule in that order (0: shape_rule_lookup's): where the best rule's kernel cannot
 * run the call (a batch it cannot read in one launch), the next looser class may. */
const shape_rule *shape_rule_lookup_ranked(const shape_rules *rules, const char *device,
                                           const char *driver, const char *purpose, int dtype,
                                           bool trans_a, bool trans_b, bool batched, long M,
                                           long N, int rank);
/* The largest m_max among the batch rules that would apply to a batch but for its M (0: none):
 * a batch of taller problems than every class measured is below it (batch_choice.c). */
long shape_rule_batch_m_max(const shape_rules *rules, const char *device, const char *purpose,
                            int dtype, bool trans_a, bool trans_b);

/* The split count the rule asks for with `tiles` blocks of C and this K (1: none).  uneven:
 * the kernel runs a shorter last slice in the same launch (steps 10 and 11), so any count will do;
 * else the count is moved to one that cuts K evenly where there is one. */
int shape_rule_split(const shape_rule *r, unsigned compute_units, long tiles, long K,
                     bool uneven);

/* What the split model (above) charges for s slices of `tiles` blocks, in rounds of the
 * unsplit kernel at this K (rounds(1) x (1 + L / K) for s = 1). */
double shape_rule_split_cost(const shape_rule *r, unsigned compute_units, long tiles, long K,
                             long s, bool uneven);

/* Whether the rule's wide form (wide_params), `wide_tiles` blocks in `wide_split` slices,
 * costs less than the rule's own tile, `tiles` blocks in `split` slices: the split model's
 * cost of each (shape_rule_split_cost), the wide form's times wide_round.  The costs land in
 * *own and *wide (may be NULL).  Bigger tiles do more work per byte they load, so a round of
 * them costs less than two rounds of half-size ones (the H100's TF32 128 x 256 against
 * 128 x 128 at M <= 512: 1.25); where the narrow blocks leave a last round barely begun
 * (512 x 6144 x 4096: 192 blocks on 132 SMs) the wide ones fill one round (96).  The wide
 * form runs unsplit unless the rule says "wide_split": true; then shape_rule_wide_split
 * gives its count. */
bool shape_rule_wide(const shape_rule *r, unsigned compute_units, long tiles, int split, long K,
                     bool uneven, long wide_tiles, int wide_split, double *own, double *wide);
int shape_rule_wide_split(const shape_rule *r, unsigned compute_units, long wide_tiles, long K,
                          bool uneven);

/* Beyond every rule, the parameters step 10 takes on fp32 data for an M x N call whose plan
 * has a bm x bn tile (split: tf32x3): one operand in registers with the producer's registers
 * (its 128 x 256 tile, or tf32x3's 128 x 128), swapped where N > M so that the larger operand
 * is the one that skips its pre-pass; NULL where the tile is another (api_shape.c). */
const char *shape_tf32_registers_form(long M, long N, int bm, int bn, bool split);
/* The same call where A (the kernel's A) must be copied first anyway, its rows off 16 bytes:
 * the form with A rounded by that copy instead (TF32's, not tf32x3's); NULL for any other
 * form. */
const char *shape_tf32_copied_a_form(const char *form);

#endif
