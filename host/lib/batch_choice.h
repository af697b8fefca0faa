/* Which kernel runs a strided batch in one launch, where a purpose name or auto chose by the
 * shape of one problem: the tuning database's batch rules first (shape_rule.h), then a
 * purpose name's candidates.  Used by gemm_call.c. */
#ifndef CLGEMM_BATCH_CHOICE_H
#define CLGEMM_BATCH_CHOICE_H

#include "gemm_call.h"

struct ctx_plan *batch_choice_candidate(const char *fn, clgemm_context *ctx,
                                        const clgemm_gemm_desc *d, const struct ctx_plan *named,
                                        size_t batch, const gemm_build *want,
                                        const user_operand *const u[3], problem *p, bool *any);

struct ctx_plan *batch_choice_auto_rule(const char *fn, clgemm_context *ctx,
                                        const clgemm_gemm_desc *d, size_t batch,
                                        const gemm_build *want, const user_operand *const u[3],
                                        problem *p, bool *any);

#endif
