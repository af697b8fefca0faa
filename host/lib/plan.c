/* From a registry row to a plan: the variant (or a purpose name's candidate), its parameters,
 * precision and launch shape; plan_build.c compiles it. */
#include "gemm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_build.h"
#include "ptx_maxnreg.h"

/* The arithmetic a variant really does with these parameters; host/cli/check.c holds the
 * error bound of each name (docs/precision.md says why each holds). */
static const char *precision_of(const variant *v, const params *p, clgemm_dtype dtype)
{
    if (dtype != CLGEMM_F32)
        return clgemm_dtype_name(dtype);
    if (params_get(p, "SPLIT", 0) != 0)
        return "tf32x3";
    /* PACKA = 0: wgmma reads A from local memory as fp32 and drops its low 13 bits (1 and 2
     * round it, by the pre-pass or in local memory; B is always rounded). */
    if (v->prepass == PREPASS_TF32_PACK && params_get(p, "PACKA", 1) == 0)
        return "tf32t";
    return v->precision;
}

/* Every key of `text` must be one the variant reads. */
static int check_keys(const variant *v, const char *name, const char *text, errbuf *e)
{
    params p = { .count = 0 };
    if (params_parse(&p, text, e) != 0)
        return -1;
    for (int i = 0; i < p.count; i++)
        if (!variant_has_key(v, p.kv[i].key)) {
            char keys[256];
            variant_keys(v, keys, sizeof keys);
            err_set(e, "unknown parameter '%s' for %s (%s; its parameters: %s)", p.kv[i].key,
                    name, v->backend, keys);
            return -1;
        }
    return 0;
}

int gemm_params_check(const algo_def *algo, const char *overrides, errbuf *e)
{
    params p = { .count = 0 };
    if (params_parse(&p, overrides, e) != 0)
        return -1;
    for (int i = 0; i < p.count; i++) {
        if (!algo_has_key(algo, p.kv[i].key)) {
            err_set(e, "unknown parameter '%s' for %s (its parameters: %s%s)", p.kv[i].key,
                    algo->desc.name, algo->desc.defaults,
                    algo->candidates ? "those of the steps it runs" : "");
            return -1;
        }
        if (p.kv[i].value < 0 || p.kv[i].value > 65536) {
            err_set(e, "parameter %s=%ld out of range 0..65536", p.kv[i].key, p.kv[i].value);
            return -1;
        }
        if (strcmp(p.kv[i].key, "SPLITK") == 0 && p.kv[i].value < 1) {
            err_set(e, "SPLITK=0: the number of K slices must be at least 1");
            return -1;
        }
    }
    return 0;
}

/* Work-items per group, from the tile parameters and the row's launch kind. */
static int launch_shape(gemm_plan *plan, const device_info *dev, errbuf *e)
{
    const variant *v = plan->variant;
    const int tm = (int)params_get(&plan->params, "TM", 1);
    const int tn = (int)params_get(&plan->params, "TN", 1);
    switch (v->launch) {
    case LAUNCH_TILE:
    case LAUNCH_TILE_ROWS:
        if (tm < 1 || tn < 1 || plan->bm % tm || plan->bn % tn) {
            err_set(e, "invalid tile: BM=%d BN=%d must be positive multiples of TM=%d TN=%d",
                    plan->bm, plan->bn, tm, tn);
            return -1;
        }
        plan->local[0] = (size_t)(v->launch == LAUNCH_TILE ? plan->bn / tn : plan->bm / tm);
        plan->local[1] = (size_t)(v->launch == LAUNCH_TILE ? plan->bm / tm : plan->bn / tn);
        break;
    case LAUNCH_GROUPS: {
        /* Step 11: WG work-items, KT of them on each column's K; a work-item owns RN columns
         * (B transposed) or one vector of 16 bytes (cl/11_skinny.cl). */
        const int wg = (int)params_get(&plan->params, "WG", 0);
        const int kt = (int)params_get(&plan->params, "KT", 0);
        const int own = plan->build.trans_b ? (int)params_get(&plan->params, "RN", 0)
                                            : (plan->dtype == CLGEMM_F32 ? 4 : 8);
        if (wg < 1 || kt < 1 || own < 1 || wg % kt) {
            err_set(e, "invalid shape: KT=%d must divide WG=%d (and RN be at least 1)", kt, wg);
            return -1;
        }
        plan->bn = wg / kt * own;
        plan->local[0] = (size_t)wg;
        plan->local[1] = 1;
        break;
    }
    case LAUNCH_WARPGROUPS:
    case LAUNCH_WARPGROUPS_PRODUCER:
        if (plan->bm % 64) {
            err_set(e, "invalid tile: BM=%d must be a multiple of 64 (one warpgroup per 64 rows)",
                    plan->bm);
            return -1;
        }
        /* Step 10: the producer warp (a warpgroup with SETMAXNREG=1), and with ROUNDER=1
         * (TF32) a rounding warpgroup (cl/mma/tma_config.h, tma_round.h; other values fail
         * the kernel's build). */
        int producer = 0;
        if (v->launch == LAUNCH_WARPGROUPS_PRODUCER)
            producer = params_get(&plan->params, "SETMAXNREG", 0) == 1 ? 128 : 32;
        plan->local[0] = (size_t)(plan->bm / 64 * 128 + producer +
                                  128 * (params_get(&plan->params, "ROUNDER", 0) == 1));
        plan->local[1] = 1;
        break;
    }
    if (plan->local[0] * plan->local[1] > dev->max_work_group) {
        err_set(e, "needs %zu work-items per group, the device allows %zu",
                plan->local[0] * plan->local[1], dev->max_work_group);
        return -1;
    }
    return 0;
}

/* One step on one variant: parameters (defaults, then a purpose name's additions, then the
 * caller's), checks, build.  `adds` may be NULL. */
static plan_status build_variant(gemm_plan *plan, cl_context ctx, const device_info *dev,
                                 const algo_def *algo, const algo_def *step, const variant *v,
                                 clgemm_dtype dtype, const char *adds, const char *overrides,
                                 bool build, const gemm_build *want, char **log, errbuf *e)
{
    memset(plan, 0, sizeof *plan);
    *plan = (gemm_plan){ .algo = algo, .step = step, .variant = v, .dtype = (int)dtype,
                         .compute_units = dev->compute_units ? dev->compute_units : 1 };
    *log = NULL;
    if (adds && check_keys(v, step->desc.name, adds, e) != 0)
        return PLAN_UNSUPPORTED; /* this backend has no such form (tf32x3 on DPAS, say) */
    if (overrides && check_keys(v, step->desc.name, overrides, e) != 0)
        return PLAN_INVALID;
    if (params_parse(&plan->params, v->defaults, e) != 0 ||
        (adds && params_parse(&plan->params, adds, e) != 0) ||
        (overrides && params_parse(&plan->params, overrides, e) != 0))
        return PLAN_INVALID;
    /* Tile parameters are small integers; anything else (0, negative, beyond int) would hang a
     * K loop or be cut silently, so it is refused before a kernel is built. */
    for (int i = 0; i < plan->params.count; i++)
        if (plan->params.kv[i].value < 0 || plan->params.kv[i].value > 65536) {
            err_set(e, "parameter %s=%ld out of range 0..65536", plan->params.kv[i].key,
                    plan->params.kv[i].value);
            return PLAN_INVALID;
        }
    /* SPLITK is the host's (splitk.c): a split plan launches its slices as a batch. */
    plan->splitk = (int)params_get(&plan->params, "SPLITK", 1);
    if (plan->splitk < 1) {
        err_set(e, "SPLITK=%d: the number of K slices must be at least 1", plan->splitk);
        return PLAN_INVALID;
    }
    /* SWAP is the host's too: the operands and the build of C^T (gemm_call.c swaps the
     * problem to match). */
    const long swap = params_get(&plan->params, "SWAP", 0);
    if (swap > 1) {
        err_set(e, "SWAP=%ld: 0 (C = op(A) op(B)) or 1 (C^T = op(B)^T op(A)^T)", swap);
        return PLAN_INVALID;
    }
    plan->swap = swap == 1;
    /* Step 10's SETMAXNREG=1 moves registers from the producer warpgroup to the consumers
     * (cl/mma/tma_config.h); ptxas honours setmaxnreg only where the PTX fixes the count every
     * warp starts with (warning C7508 otherwise), which for its 384 work-items is 65536 / 384
     * rounded down to 8.  An emulation has no PTX and no registers to move. */
    const bool moves_registers =
        params_get(&plan->params, "SETMAXNREG", 0) == 1 && v->need != NEED_EMULATION;
    const long maxnreg = params_get(&plan->params, "MAXNREG", moves_registers ? 168 : 0);
    if (maxnreg != 0 && (maxnreg < PTX_MAXNREG_MIN || maxnreg > PTX_MAXNREG_MAX)) {
        err_set(e, "MAXNREG=%ld: 0 (the compiler's choice) or a register cap from %d to %d",
                maxnreg, PTX_MAXNREG_MIN, PTX_MAXNREG_MAX);
        return PLAN_INVALID;
    }
    const gemm_build asked = plan->swap ? gemm_build_swapped(want) : *want;
    plan->batched = asked.batched && v->batched;
    plan->build = asked;
    plan->build.batched = plan->batched;
    /* READT=0 (step 7's default) packs a transposed operand although the kernel could read
     * it in place: at 4096^3 its k-contiguous reads of B^T are slower than the pre-pass
     * (bench/results/2026-11-24_nvidia-h100/llama-rounder/), at M = 128 the pre-pass is a third
     * of the time; the shape rules say READT=1 where it pays. */
    const bool read_t = params_get(&plan->params, "READT", 1) != 0;
    plan->build.trans_a = asked.trans_a && (v->trans & TRANS_A) && read_t;
    plan->build.trans_b = asked.trans_b && (v->trans & TRANS_B) && read_t;
    /* Steps 10 and 11 split in their own launch (cl/mma/tma_ksplit.h, cl/skinny_ksplit.h);
     * the others as a batch. */
    plan->ksplit_fused = plan->splitk > 1 && v->split_in_launch;
    if (plan->splitk > 1 && !plan->ksplit_fused)
        plan->batched = plan->build.batched = true;
    plan->bm = (int)params_get(&plan->params, "BM", 1);
    plan->bn = (int)params_get(&plan->params, "BN", 1);
    plan->bk = (int)params_get(&plan->params, "BK", 1);
    if (plan->bm < 1 || plan->bn < 1 || plan->bk < 1) {
        err_set(e, "BM, BN and BK must be at least 1");
        return PLAN_UNSUPPORTED;
    }
    if (launch_shape(plan, dev, e) != 0)
        return PLAN_UNSUPPORTED;
    plan->precision = precision_of(v, &plan->params, dtype);
    /* The kernel refuses this build too (cl/mma/wgmma_tma_checks.h); said here, a choice that
     * tries it (a mirrored shape rule, api_shape.c) moves on without a compiler run. */
    const long wgn = params_get(&plan->params, "WGN", plan->bn);
    if (v->tma && dtype != CLGEMM_F32 && !plan->build.trans_b && (plan->bn % 64 || wgn < 64)) {
        err_set(e, "a 16-bit B stored K x N lands in 64-column swizzle atoms: BN=%d and WGN=%ld "
                "must be multiples of 64", plan->bn, wgn);
        return PLAN_INVALID;
    }
    plan->split = v->prepass == PREPASS_TF32_PACK && params_get(&plan->params, "SPLIT", 0) != 0;
    const long packa = params_get(&plan->params, "PACKA", 1);
    /* PACKA=3 rounds A, or with SPLIT splits it, in registers: A is never packed for it. */
    plan->a_regs = v->prepass == PREPASS_TF32_PACK && packa == 3;
    plan->pack_a = (plan->split && !plan->a_regs) ||
                   (v->prepass == PREPASS_TF32_PACK && packa == 1);
    const long packb = params_get(&plan->params, "PACKB", 1);
    /* tf32x3 with PACKB=2 splits B in local memory: B is packed only where the kernel cannot
     * read it in place, as an exact copy (cl/mma/tf32_pack.h). */
    plan->b_split_local = plan->split && packb == 2;
    plan->pack_b = (plan->split && !plan->b_split_local) ||
                   (v->prepass == PREPASS_TF32_PACK && packb == 1);
    plan->a_regs_t = plan->a_regs && plan->build.trans_a;
    if (!build)
        return PLAN_OK;

    return plan_build(plan, ctx, dev, maxnreg, log, e);
}

/* A purpose name: its candidates in order, hardware paths first; only where no candidate
 * has hardware does the last one run emulated (the portable lesson, not the slowest
 * emulation).  A candidate the device refuses falls to the next; a build failure does not
 * (that is a bug to see, not to hide behind a slower kernel). */
static plan_status create_purpose(gemm_plan *plan, cl_context ctx, const device_info *dev,
                                  const algo_def *algo, clgemm_dtype dtype,
                                  const char *overrides, bool build, const gemm_build *want,
                                  char **log, errbuf *e)
{
    char why[512] = "";
    plan_status st = PLAN_UNSUPPORTED;
    for (int emulated = 0; emulated <= 1; emulated++)
        for (const char *c = algo->candidates; *c;) {
            const size_t len = strcspn(c, " ");
            const size_t name_len = strcspn(c, ": ");
            const bool last = c[len] == '\0';
            char adds[160] = "";
            if (name_len < len)
                snprintf(adds, sizeof adds, "%.*s", (int)(len - name_len - 1), c + name_len + 1);
            const algo_def *step = algo_find_n(c, name_len);
            c += len;
            c += strspn(c, " ");
            errbuf no = { "" };
            const variant *v = step ? variant_choose(dev, step, dtype, &no) : NULL;
            /* A batched build goes to the best candidate that takes a batch in one launch. */
            if (v && want->batched && !v->batched) {
                err_set(&no, "takes no batch in one launch");
                v = NULL;
            }
            if (!v || (v->need == NEED_EMULATION) != (emulated == 1) || (emulated && !last)) {
                if (!emulated && *no.msg) /* the last, most general reason stays */
                    snprintf(why, sizeof why, "%s", no.msg);
                continue;
            }
            free(*log);
            st = build_variant(plan, ctx, dev, algo, step, v, dtype, *adds ? adds : NULL,
                               overrides, build, want, log, &no);
            if (st != PLAN_UNSUPPORTED) {
                if (st != PLAN_OK)
                    err_set(e, "runs %s here: %s", step->desc.name, no.msg);
                return st;
            }
            snprintf(why, sizeof why, "%s: %s", step->desc.name, no.msg);
        }
    err_set(e, "%s", *why ? why : "no matrix-unit path on this device");
    return st;
}

static plan_status create(gemm_plan *plan, cl_context ctx, const device_info *dev,
                          const algo_def *algo, clgemm_dtype dtype, const char *overrides,
                          bool build, const gemm_build *want, char **log, errbuf *e)
{
    memset(plan, 0, sizeof *plan);
    *log = NULL;
    if (overrides && !*overrides)
        overrides = NULL;
    if (!algo_takes(algo, dtype)) {
        err_set(e, "takes no %s data", clgemm_dtype_name(dtype));
        return PLAN_UNSUPPORTED;
    }
    if (algo->candidates)
        return create_purpose(plan, ctx, dev, algo, dtype, overrides, build, want, log, e);
    const variant *v = variant_choose(dev, algo, dtype, e);
    if (!v)
        return PLAN_UNSUPPORTED;
    return build_variant(plan, ctx, dev, algo, algo, v, dtype, NULL, overrides, build, want, log,
                         e);
}

plan_status gemm_plan_create(gemm_plan *plan, cl_context ctx, const device_info *dev,
                             const algo_def *algo, clgemm_dtype dtype, const char *overrides,
                             const gemm_build *build, char **log, errbuf *e)
{
    return create(plan, ctx, dev, algo, dtype, overrides, true, build, log, e);
}

plan_status gemm_plan_describe(gemm_plan *plan, const device_info *dev, const algo_def *algo,
                               clgemm_dtype dtype, const char *overrides, errbuf *e)
{
    char *log = NULL;
    const gemm_build plain = { .batched = false };
    plan_status st = create(plan, NULL, dev, algo, dtype, overrides, false, &plain, &log, e);
    free(log);
    return st;
}

void gemm_plan_release(gemm_plan *plan)
{
    prepass_release(plan);
    splitk_release(plan);
    if (plan->kernel)
        clReleaseKernel(plan->kernel);
    if (plan->program)
        clReleaseProgram(plan->program);
    plan->kernel = NULL;
    plan->program = NULL;
}

bool gemm_plan_reads(const gemm_plan *plan, int which, gemm_operand X)
{
    const variant *v = plan->variant;
    int m = !v || (which == 2 && (v->trans & C_ANY)) ? 1 : v->ld_multiple;
    /* the tensor map's rows on 16 bytes; with SPLIT the layout pass (an exact copy) aligns a
     * misaligned A, as the TF32 pass would round away its low half */
    if (which == 0 && (plan->a_regs_t || (plan->a_regs && plan->split)))
        m = 4;
    return X.ld % m == 0 && X.off % m == 0;
}

/* Step 10's B (the operand read again by every block of the other dimension; X where the
 * problem is swapped): rows on 16 bytes but not on 32 the copy engine reads in place, but
 * slowly: on the H200 bf16 4096^3 ran 0.296 ms with rows 16 bytes off 32 against 0.180
 * aligned, and 0.208 with B packed first (A, read a tenth as often, costs 3% in place); bf16
 * 128x6144x4096 N T 0.041, 0.021 aligned, 0.032 with X packed (probe295).  Rows on 32 bytes
 * but not on 128 cost 2-5%.  fp32 data: the TF32 pre-pass decides (prepass_tf32.c). */
bool gemm_plan_reads_slowly(const gemm_plan *plan, int which, gemm_operand X)
{
    const variant *v = plan->variant;
    const int m = TMA_FAST_ROW_BYTES / 2; /* 16-bit values */
    return which == 1 && v && v->tma && plan->dtype != CLGEMM_F32 &&
           (X.ld % m != 0 || X.off % m != 0);
}
