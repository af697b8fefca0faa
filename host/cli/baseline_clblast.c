#include "baseline_clblast.h"

#include "clgemm_config.h"

#if CLGEMM_HAVE_CLBLAST
#include <clblast_c.h>

bool baseline_clblast_available(void) { return true; }

int baseline_clblast_enqueue(cl_command_queue q, const clgemm_gemm_desc *d, cl_event *last,
                             errbuf *e)
{
    const CLBlastLayout layout =
        d->layout == CLGEMM_COL_MAJOR ? CLBlastLayoutColMajor : CLBlastLayoutRowMajor;
    const CLBlastTranspose ta = d->op_a == CLGEMM_OP_T ? CLBlastTransposeYes : CLBlastTransposeNo;
    const CLBlastTranspose tb = d->op_b == CLGEMM_OP_T ? CLBlastTransposeYes : CLBlastTransposeNo;
    const bool batched = d->batch > 1;
    CLBlastStatusCode st =
        batched ? CLBlastSgemmStridedBatched(layout, ta, tb, d->M, d->N, d->K, d->alpha, d->A,
                                             d->off_a, d->ld_a, d->stride_a, d->B, d->off_b,
                                             d->ld_b, d->stride_b, d->beta, d->C, d->off_c,
                                             d->ld_c, d->stride_c, d->batch, &q, last)
                : CLBlastSgemm(layout, ta, tb, d->M, d->N, d->K, d->alpha, d->A, d->off_a,
                               d->ld_a, d->B, d->off_b, d->ld_b, d->beta, d->C, d->off_c,
                               d->ld_c, &q, last);
    if (st != CLBlastSuccess) {
        const char *fn = batched ? "CLBlastSgemmStridedBatched" : "CLBlastSgemm";
        /* CLBlast passes OpenCL errors through and uses -1024 and below for its own. */
        if (st > -1024)
            err_set(e, "%s failed: %s", fn, cl_error_name((cl_int)st));
        else
            err_set(e, "%s failed: CLBlast status %d", fn, (int)st);
        return -1;
    }
    return 0;
}

void baseline_clblast_release(void) { CLBlastClearCache(); }

#else

bool baseline_clblast_available(void) { return false; }

int baseline_clblast_enqueue(cl_command_queue q, const clgemm_gemm_desc *d, cl_event *last,
                             errbuf *e)
{
    (void)q, (void)d, (void)last;
    err_set(e, "this clgemm was built without CLBlast (-Dclblast=disabled or not found)");
    return -1;
}

void baseline_clblast_release(void) {}

#endif
