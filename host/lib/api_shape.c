/* The shape-aware half of the choice (api_choose in api_gemm.c): the shape rule of the tuning
 * database (shape_rule.h) for auto and the purpose names, with its split count, and the
 * reason clgemm_resolve_reason() gives for the last choice made on this thread. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api_internal.h"
#include "registry.h"
#include "tuning.h"

static _Thread_local char reason[512];

const char *clgemm_resolve_reason(void) { return reason; }

void api_reason(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
}

bool api_choose_by_shape(clgemm_context *ctx, const char *algorithm, clgemm_dtype dtype,
                         size_t M, size_t N, size_t K, const gemm_build *build,
                         struct ctx_plan **out)
{
    return api_choose_by_shape_ranked(ctx, algorithm, dtype, M, N, K, build, 0, out);
}

/* The blocks of C the plan's kernel runs for an M x N call (swapped, C^T's). */
static size_t kernel_blocks(const gemm_plan *g, size_t M, size_t N)
{
    const size_t rows = g->swap ? N : M, cols = g->swap ? M : N;
    return ((rows + (size_t)g->bm - 1) / (size_t)g->bm) *
           ((cols + (size_t)g->bn - 1) / (size_t)g->bn);
}

/* A rule's parameters as this call runs them: mirrored, with SWAP turned over. */
static bool rule_form(const char *rule_params, bool mirrored, char *out, size_t size)
{
    snprintf(out, size, "%s", rule_params);
    if (!mirrored)
        return true;
    params given = { 0 };
    errbuf e = { "" };
    if (params_parse(&given, rule_params, &e) != 0)
        return false;
    return params_with(rule_params, "SWAP", params_get(&given, "SWAP", 0) == 1 ? 0 : 1, out,
                       size) == 0;
}

/* The rule's wide form (shape_rule_wide) where it costs less than the plan chosen (unsplit,
 * or split as the rule splits where it says wide_split); else NULL.  why: what the
 * comparison was, for the reason. */
static struct ctx_plan *wide_form(clgemm_context *ctx, const shape_rule *r, const algo_def *algo,
                                  clgemm_dtype dtype, size_t M, size_t N, size_t K,
                                  const gemm_build *build, bool mirrored, long tiles, int split,
                                  bool uneven, char *why, size_t size)
{
    char wide_params[sizeof r->wide_params + 32];
    if (!r->wide_params[0] || (build && build->batched) ||
        !rule_form(r->wide_params, mirrored, wide_params, sizeof wide_params))
        return NULL;
    struct ctx_plan *w = api_plan(ctx, algo, dtype, wide_params, build);
    if (!w || w->status != PLAN_OK)
        return NULL;
    const long wide_tiles = (long)kernel_blocks(&w->plan, M, N);
    const int wide_split =
        w->plan.variant->batched
            ? shape_rule_wide_split(r, ctx->dev->compute_units, wide_tiles, (long)K,
                                    w->plan.variant->split_in_launch)
            : 1;
    double own = 0, wide = 0;
    if (!shape_rule_wide(r, ctx->dev->compute_units, tiles, split, (long)K, uneven, wide_tiles,
                         wide_split, &own, &wide))
        return NULL;
    const int bm = w->plan.bm, bn = w->plan.bn;
    if (wide_split > 1) {
        if (params_with(wide_params, "SPLITK", wide_split, wide_params, sizeof wide_params) != 0)
            return NULL;
        w = api_plan(ctx, algo, dtype, wide_params, build);
        if (!w || w->status != PLAN_OK)
            return NULL;
    }
    char busy[64] = "";
    if (r->wide_min_per_cu > 0)
        snprintf(busy, sizeof busy, " (%.2f per CU, at least the rule's %.2f)",
                 (double)wide_tiles / ctx->dev->compute_units, r->wide_min_per_cu);
    snprintf(why, size, "; the wide form %.100s: %ld blocks of %dx%d%s, %.2f rounds of the "
             "rule's against %.2f", wide_params, wide_tiles, bm, bn, busy, wide, own);
    return w;
}

/* A rule's kernel for this call.  mirrored: the rule is for C^T's shape, N x M (the call's
 * op(B)^T op(A)^T), and runs with its SWAP turned over: swapping a swapped problem back is
 * the call itself, so the kernel reads the same operands the same way as the rule measured
 * for the transposed shape, and only stores C the other way round (C is the narrow
 * matrix). */
static bool choose_by_rule(clgemm_context *ctx, const char *algorithm, clgemm_dtype dtype,
                           size_t M, size_t N, size_t K, const gemm_build *build, int rank,
                           bool mirrored, struct ctx_plan **out)
{
    const char *purpose = algorithm ? algorithm : "auto";
    const algo_def *named = algorithm ? algo_find(algorithm) : NULL;
    if (algorithm && (!named || !named->candidates))
        return false; /* a step by name runs as named */
    const bool trans_a = build && build->trans_a, trans_b = build && build->trans_b,
               batched = build && build->batched;
    /* C^T = op(B)^T op(A)^T: its A is B read the other way, its B is A read the other way. */
    const shape_rule *r = shape_rule_lookup_ranked(
        &tuning_get()->rules, ctx->dev->name, ctx->dev->driver, purpose, (int)dtype,
        mirrored ? !trans_b : trans_a, mirrored ? !trans_a : trans_b, batched,
        (long)(mirrored ? N : M), (long)(mirrored ? M : N), rank);
    if (!r)
        return false;
    const algo_def *algo = algo_find(r->algorithm);
    errbuf e = { "" };
    /* auto never changes the arithmetic: its rules may name fp32 steps only. */
    if (!algo || !algo_takes(algo, dtype) || gemm_params_check(algo, r->params, &e) != 0 ||
        (!algorithm && strcmp(algo->desc.precision, "fp32") != 0))
        return false;
    char rule_params[sizeof r->params + 16];
    if (!rule_form(r->params, mirrored, rule_params, sizeof rule_params))
        return false;
    struct ctx_plan *p = api_plan(ctx, algo, dtype, rule_params, build);
    if (!p || p->status != PLAN_OK)
        return false;
    const gemm_plan *g = &p->plan;
    const long tiles = (long)kernel_blocks(g, M, N);
    const int split = g->variant->batched && !batched /* dimension 2 is the batch's */
                          ? shape_rule_split(r, ctx->dev->compute_units, tiles, (long)K,
                                             g->variant->split_in_launch)
                          : 1;
    /* The wide form first: a split plan it would replace is never compiled. */
    char why_split[160] = "", why_wide[256] = "";
    const bool uneven = g->variant->split_in_launch;
    struct ctx_plan *w = wide_form(ctx, r, algo, dtype, M, N, K, build, mirrored, tiles, split,
                                   uneven, why_wide, sizeof why_wide);
    if (!w && split > 1) {
        char overrides[sizeof rule_params + 32];
        struct ctx_plan *q =
            params_with(rule_params, "SPLITK", split, overrides, sizeof overrides) == 0
                ? api_plan(ctx, algo, dtype, overrides, build)
                : NULL;
        if (q && q->status == PLAN_OK) {
            p = q;
            char each[40] = "";
            if (r->split_slice_k > 0 && r->groups_per_cu > 1)
                snprintf(each, sizeof each, ", %d groups at once on each", r->groups_per_cu);
            snprintf(why_split, sizeof why_split, "; %ld blocks of %dx%d for %u compute units%s: "
                     "K in %d slices", tiles, g->bm, g->bn, ctx->dev->compute_units, each, split);
        } else { /* the rule's tile runs unsplit: weigh the wide form against that */
            w = wide_form(ctx, r, algo, dtype, M, N, K, build, mirrored, tiles, 1, uneven,
                          why_wide, sizeof why_wide);
        }
    }
    if (w)
        p = w;
    api_reason("%s%s%sshape class M <= %ld, %s%s, %s data, for %s (rule of %s%s%s)%s%s",
               batched ? "batch rule: " : "",
               rank ? "a tighter class's kernel cannot run it: " : "",
               mirrored ? "mirrored, the rule of C^T's shape with SWAP turned over: " : "",
               r->m_max,
               r->trans_a < 0 ? "" : r->trans_a ? "A stored K x M, " : "A stored M x K, ",
               r->trans < 0 ? "any B" : r->trans ? "B stored N x K" : "B stored K x N",
               clgemm_dtype_name(dtype), purpose, r->device, *r->measured ? ", measured at " : "",
               r->measured, why_split, why_wide);
    *out = p;
    return true;
}

/* The call's own shape first; where no rule takes it, a single GEMM tall and narrow (N small,
 * M large) takes the rule of its transpose's shape: the classes are of small M, and C^T of a
 * 4096 x 16 C is a 16 x 4096 one. */
bool api_choose_by_shape_ranked(clgemm_context *ctx, const char *algorithm, clgemm_dtype dtype,
                                size_t M, size_t N, size_t K, const gemm_build *build,
                                int rank, struct ctx_plan **out)
{
    if (choose_by_rule(ctx, algorithm, dtype, M, N, K, build, rank, false, out))
        return true;
    const bool batched = build && build->batched;
    return rank == 0 && !batched &&
           choose_by_rule(ctx, algorithm, dtype, M, N, K, build, 0, true, out);
}

/* Step 10's default tile (128 x 256) is cuBLAS's for large problems; where it leaves half the
 * compute units or more without a block, the 128 x 128 tile runs (probe77 in
 * bench/results/2026-11-26_nvidia-h100/probes: TF32 1024^3 0.039 -> 0.031 ms, bf16 0.0164 ->
 * 0.0128; at 2048^3 the default fills the H100 and stays fastest, as at 1000x3000x777, where
 * 96 blocks run one wave either way).  Small M against N has its rules, so this serves the
 * shapes no rule covers. */
#define FILL_TILE "BN=128,WGN=128"
void api_fill_tiles(clgemm_context *ctx, const algo_def *purpose, clgemm_dtype dtype, size_t M,
                    size_t N, const gemm_build *build, struct ctx_plan **out)
{
    const gemm_plan *g = &(*out)->plan;
    if (!g->variant->tma || g->bn <= 128)
        return;
    const size_t blocks = kernel_blocks(g, M, N);
    if (2 * blocks > ctx->dev->compute_units)
        return;
    struct ctx_plan *q = api_plan(ctx, purpose, dtype, FILL_TILE, build);
    if (!q || q->status != PLAN_OK)
        return;
    api_reason("no shape rule for M = %zu: %s's first candidate, with %s: the default tile "
               "gives %zu blocks for %u compute units", M, purpose->desc.name, FILL_TILE,
               blocks, ctx->dev->compute_units);
    *out = q;
}

/* TF32 (and tf32x3) on step 10's default tile, with no rule: one operand rounded (or split)
 * in registers on its way to wgmma (PACKA=3) saves its pre-pass over memory, and with the
 * producer's registers handed to the consumers (SETMAXNREG=1) the 128 x 256 tile keeps its
 * wgmmas running back to back, where the compiler's 168 registers serialised them.  The
 * larger operand takes the registers: where N > M the problem runs swapped (SWAP=1), B the
 * kernel's A.  On the H100 (probe166 in bench/results/2026-11-27_nvidia-h100/probes): TF32
 * 4096^3 N T 0.432 -> 0.398 ms, 4096x28672x4096 2.67 -> 2.51, tf32x3 4096^3 1.23 -> 1.11. */
void api_tf32_registers(clgemm_context *ctx, const algo_def *purpose, clgemm_dtype dtype,
                        size_t M, size_t N, const gemm_build *build, struct ctx_plan **out)
{
    const gemm_plan *g = &(*out)->plan;
    const char *form = dtype == CLGEMM_F32 && g->variant->tma
                           ? shape_tf32_registers_form((long)M, (long)N, g->bm, g->bn,
                                                       params_get(&g->params, "SPLIT", 0) != 0)
                           : NULL;
    if (!form)
        return;
    struct ctx_plan *q = api_plan(ctx, purpose, dtype, form, build);
    if (!q || q->status != PLAN_OK)
        return;
    api_reason("no shape rule for M = %zu: %s's first candidate, with %s: the %s operand "
               "rounded in registers, the producer's registers the consumers'", M,
               purpose->desc.name, form, N > M ? "larger (B)" : "A");
    *out = q;
}

void api_tf32_copied_a(clgemm_context *ctx, struct ctx_plan **out)
{
    const char *form = !(*out)->plan.split
                           ? shape_tf32_copied_a_form((*out)->overrides)
                           : NULL;
    if (!form)
        return;
    struct ctx_plan *q = api_plan(ctx, (*out)->algo, (*out)->dtype, form, &(*out)->build);
    if (!q || q->status != PLAN_OK)
        return;
    api_reason("no shape rule: %s's first candidate, with %s: A copied first anyway (its "
               "rows off 16 bytes), so rounded by that copy rather than in registers",
               (*out)->algo->desc.name, form);
    *out = q;
}

size_t clgemm_shape_rules(clgemm_context *ctx, char *out, size_t size)
{
    size_t used = 0;
    if (out && size)
        out[0] = '\0';
    if (!ctx)
        return 0;
    const shape_rules *rules = &tuning_get()->rules;
    for (size_t i = 0; i < rules->count; i++) {
        const shape_rule *r = &rules->items[i];
        if (strcmp(r->device, ctx->dev->name) != 0 && strcmp(r->device, "*") != 0)
            continue;
        char split[64] = "", measured[96] = "", wide[200] = "", line[768];
        if (r->split_slice_k > 0 && r->groups_per_cu > 1)
            snprintf(split, sizeof split, ", K split for even rounds of %d blocks per CU",
                     r->groups_per_cu);
        else if (r->split_slice_k > 0)
            snprintf(split, sizeof split, ", K split for even rounds of blocks per CU");
        else if (r->split_per_cu > 0)
            snprintf(split, sizeof split, ", K split below %.2f blocks per CU", r->split_per_cu);
        if (*r->measured)
            snprintf(measured, sizeof measured, " (measured at %s)", r->measured);
        char busy[48] = "";
        if (r->wide_min_per_cu > 0)
            snprintf(busy, sizeof busy, " from %.2f blocks per CU", r->wide_min_per_cu);
        if (r->wide_params[0])
            snprintf(wide, sizeof wide, ", or %.140s%s where cheaper%s", r->wide_params,
                     r->wide_split ? " split alike" : " unsplit", busy);
        const int n = snprintf(line, sizeof line, "%-18s %-4s %-3s %s <= %-5ld -> %s%s%s%s%s%s\n",
                               r->purpose, clgemm_dtype_name((clgemm_dtype)r->dtype),
                               r->trans < 0 ? "any" : r->trans ? "NT" : "NN",
                               r->batch ? "batch M" : "M", r->m_max,
                               r->algorithm, *r->params ? ":" : "", r->params, split, wide,
                               measured);
        if (n <= 0)
            continue;
        if (out && used + (size_t)n < size)
            memcpy(out + used, line, (size_t)n + 1);
        used += (size_t)n;
    }
    return used;
}
