/* What clgemm_gemm would do with a descriptor, without enqueueing it (clgemm.h): its kernel
 * named (clgemm_resolve_gemm), built (clgemm_prepare_gemm), and the operands it would copy
 * (clgemm_resolve_packing), each by the choice clgemm_gemm makes (gemm_call_choose). */
#include <string.h>

#include "api_internal.h"
#include "gemm_call.h"

/* The call's row-major problem and plan as clgemm_gemm chooses them (*cp: also a named plan
 * that failed to build); its batch and whether it packs are clgemm_gemm's business. */
static clgemm_status choose(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *d,
                            problem *p, struct ctx_plan **cp)
{
    size_t batch = 1;
    bool any = false;
    *cp = NULL;
    return gemm_call_choose(fn, ctx, d, &batch, p, cp, &any);
}

clgemm_status clgemm_resolve_gemm(clgemm_context *ctx, const clgemm_gemm_desc *desc, char *out,
                                 size_t size)
{
    return gemm_call_resolve(__func__, ctx, desc, out, size);
}

clgemm_status gemm_call_resolve(const char *fn, clgemm_context *ctx, const clgemm_gemm_desc *d,
                                char *out, size_t size)
{
    if (!out || size == 0)
        return gemm_check_bad(fn, "NULL output buffer");
    problem p;
    struct ctx_plan *cp;
    clgemm_status st = choose(fn, ctx, d, &p, &cp);
    if (st != CLGEMM_SUCCESS)
        return st;
    return api_describe(fn, cp, out, size);
}

clgemm_status clgemm_prepare_gemm(clgemm_context *ctx, const clgemm_gemm_desc *desc,
                                  clgemm_build_info *info)
{
    if (info)
        memset(info, 0, sizeof *info);
    problem p;
    struct ctx_plan *cp;
    clgemm_status st = choose(__func__, ctx, desc, &p, &cp);
    if (cp && info) {
        api_fill_info(info, &cp->plan, cp->algo);
        info->log = cp->log;
    }
    return st;
}

clgemm_status clgemm_resolve_packing(clgemm_context *ctx, const clgemm_gemm_desc *desc,
                                     unsigned *operands)
{
    if (!operands)
        return gemm_check_bad(__func__, "NULL operands");
    *operands = 0;
    problem p;
    struct ctx_plan *cp;
    clgemm_status st = choose(__func__, ctx, desc, &p, &cp);
    if (st != CLGEMM_SUCCESS)
        return st;
    /* The row-major problem's A and B are the caller's B and A in a column-major call, and
     * again exchanged in a swapped one. */
    const bool col = (desc->layout == CLGEMM_COL_MAJOR) != p.swapped;
    *operands = (p.pack[0] ? (col ? CLGEMM_PACKS_B : CLGEMM_PACKS_A) : 0u) |
                (p.pack[1] ? (col ? CLGEMM_PACKS_A : CLGEMM_PACKS_B) : 0u) |
                (p.pack[2] ? CLGEMM_PACKS_C : 0u);
    return api_ok();
}
