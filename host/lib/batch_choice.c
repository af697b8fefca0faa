/* The batch choice of host/lib/batch_choice.h. */
#include <stdio.h>
#include <string.h>

#include "batch_choice.h"
#include "tuning.h"

/* The block a problem is counted in where the batch choice asks whether one problem fills
 * the device: step 7's and the batch rules' 128 x 128. */
#define FILL_BLOCK 128
/* The work of one problem (flops) from which a batch of problems taller than every batch class
 * runs auto's choice for one of them: about 0.1 ms of step 7 on the H100, where a launch per
 * problem (and a packing pass each) costs a few percent. */
#define BATCH_OWN_FLOPS 4e9

/* How many rules, tightest class first, a batch tries before the candidates. */
#define RULE_RANKS 4

/* A batch under a purpose name: the batch rules of the tuning database for its shape class,
 * tightest first (shape_rule.h: on the H100, step 10 with 128 x 128 tiles and two stages for
 * 16-bit data, whose stores go through local memory, 5% ahead of step 8), the first whose
 * kernel runs the whole batch in one launch; else its candidates from the last (the simplest
 * kernel, which runs batches of small problems fastest: step 8's 128 x 128 tiles and no
 * pre-pass beat step 10's defaults at 64 x 512^2 x 64 and 512 x 128^2 x 64) to the first, the
 * first whose batched build runs the whole batch in one launch (step 10, for instance, reads
 * the transposes that step 8 would pack per problem).  Only where none runs it with every
 * strided operand read in place, the first that copies such operands first (every problem's
 * copy in one launch of the layout pass).  NULL: none does. */
struct ctx_plan *batch_choice_candidate(const char *fn, clgemm_context *ctx,
                                        const clgemm_gemm_desc *d, const struct ctx_plan *named,
                                        size_t batch, const gemm_build *want,
                                        const user_operand *const u[3], problem *p, bool *any)
{
    struct ctx_plan *cp = NULL;
    const char *list = named->algo->candidates;
    gemm_build b = *want;
    b.batched = true;
    const char *names[8];
    size_t lens[8], n = 0;
    while (*list && n < 8) {
        names[n] = list;
        lens[n] = strcspn(list, " ");
        list += lens[n++];
        list += strspn(list, " ");
    }
    const int M = p->swapped ? p->s.N : p->s.M, N = p->swapped ? p->s.M : p->s.N;
    /* The rules first, tightest class first: where a class's kernel cannot run the batch in
     * one launch (step 8 reads no transposed operand), the next looser class's may (probe72:
     * a TF32 batch of 512 x 128^2 x 64 NT ran step 10's defaults at 2.2x NN's time).  A
     * caller's parameters skip the rules. */
    const char *purpose = named->algo->desc.step == 0 &&
                          strcmp(named->algo->desc.name, "auto") != 0
                              ? named->algo->desc.name : NULL;
    /* The caller's parameters, from the name it gave: the single GEMM's plan (named) may carry
     * parameters of the library's own choosing (api_fill_tiles), which must not pass for the
     * caller's and skip the batch rules. */
    const char *colon = d->algorithm ? strchr(d->algorithm, ':') : NULL;
    const char *caller = colon ? colon + 1 : "";
    /* Both lists with every strided operand read in place first; only where none does, the
     * first that copies such an operand (all problems in one launch) before its one launch. */
    for (int copies_ok = 0; copies_ok < 2; copies_ok++) {
        for (int rank = 0; !*caller && rank < RULE_RANKS; rank++) {
            if (!api_choose_by_shape_ranked(ctx, purpose, d->ab_type, (size_t)M, (size_t)N,
                                            (size_t)p->s.K, &b, rank, &cp))
                continue;
            if (gemm_call_whole_batch(fn, &cp->plan, batch, u, p, any, copies_ok)) {
                api_ok(); /* a rule refused on the way is no error of the call */
                return cp;
            }
        }
        /* Then the candidates from the last. */
        for (int c = (int)n - 1; c >= 0; c--) {
            char name[256]; /* the candidate, its parameters, then the caller's */
            const bool has = memchr(names[c], ':', lens[c]) != NULL;
            snprintf(name, sizeof name, "%.*s%s%s", (int)lens[c], names[c],
                     *caller ? (has ? "," : ":") : "", caller);
            if (api_choose(fn, ctx, name, d->ab_type, (size_t)M, (size_t)N, (size_t)p->s.K,
                           &b, &cp) != CLGEMM_SUCCESS)
                continue;
            if (gemm_call_whole_batch(fn, &cp->plan, batch, u, p, any, copies_ok)) {
                api_ok(); /* a candidate refused on the way is no error of the call */
                return cp;
            }
        }
    }
    api_ok();
    return NULL;
}

/* auto's batch: the database's batch rules for the class, tightest first, the first whose
 * kernel runs the batch in one launch (shape_rule.h).
 * auto resolves to a lesson step before the batch is looked at, so batch_choice_candidate, which
 * serves the purpose names, never sees auto's batch rules.  NULL: no rule, or its kernel
 * cannot run this batch in one launch (then auto's choice runs as before). */
struct ctx_plan *batch_choice_auto_rule(const char *fn, clgemm_context *ctx,
                                        const clgemm_gemm_desc *d, size_t batch,
                                        const gemm_build *want, const user_operand *const u[3],
                                        problem *p, bool *any)
{
    gemm_build b = *want;
    b.batched = true;
    struct ctx_plan *cp = NULL;
    size_t M = (size_t)p->s.M;
    /* Problems taller than every batch class, each too small to fill the device or to hide a
     * launch of its own: the loosest class's rule.  Without it auto's choice for one such
     * problem ran, and where that packs a transposed operand it ran a launch per problem: 16
     * x 1024x1024x64 N T took 0.40 ms on the H100, 2.6x CLBlast's time, against 0.078 by the
     * batch rule's kernel (probe107 in bench/results/2026-11-26_nvidia-h100/probes), and 8 x
     * 2048x2048x64 N T, whose problems fill the device, 0.247 against N N's 0.148 (probe108).
     * Problems of more work than BATCH_OWN_FLOPS keep auto's choice, tuned for their size
     * (4 x 2048^3 N T: 1.73 ms, 5% behind N N). */
    const long most = shape_rule_batch_m_max(&tuning_get()->rules, ctx->dev->name, "auto",
                                             (int)d->ab_type, b.trans_a, b.trans_b);
    const size_t tiles = (M + FILL_BLOCK - 1) / FILL_BLOCK *
                         (((size_t)p->s.N + FILL_BLOCK - 1) / FILL_BLOCK);
    const double flops = 2.0 * (double)M * (double)p->s.N * (double)p->s.K;
    const bool beyond = most > 0 && M > (size_t)most;
    if (beyond && (tiles < ctx->dev->compute_units || flops < BATCH_OWN_FLOPS))
        M = (size_t)most;
    /* Tightest class first, as above; and as above, a rule that copies a strided operand
     * only where none reads them all in place. */
    for (int copies_ok = 0; copies_ok < 2; copies_ok++)
        for (int rank = 0; rank < RULE_RANKS; rank++)
            if (api_choose_by_shape_ranked(ctx, NULL, d->ab_type, M, (size_t)p->s.N,
                                           (size_t)p->s.K, &b, rank, &cp) &&
                gemm_call_whole_batch(fn, &cp->plan, batch, u, p, any, copies_ok)) {
                if (M != (size_t)p->s.M) {
                    char was[400];
                    snprintf(was, sizeof was, "%s", clgemm_resolve_reason());
                    api_reason("problems taller than every batch class, each of %zu block%s of "
                               "128 x 128 (%u compute units) and %.3g GFLOP: %s", tiles,
                               tiles == 1 ? "" : "s", ctx->dev->compute_units, flops / 1e9, was);
                }
                api_ok(); /* a rule that does not fit is no error of the call */
                return cp;
            }
    api_ok();
    return NULL;
}
