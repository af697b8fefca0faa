#include "baseline_clblast.h"

#include "clgemm_config.h"

#if CLGEMM_HAVE_CLBLAST
#include <clblast_c.h>

bool baseline_clblast_available(void) { return true; }

int baseline_clblast_enqueue(cl_command_queue q, gemm_shape s, float alpha, gemm_operand A,
                             gemm_operand B, float beta, gemm_operand C, cl_event *last,
                             errbuf *e)
{
    CLBlastStatusCode st =
        CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                     (size_t)s.M, (size_t)s.N, (size_t)s.K, alpha, A.buf, (size_t)A.off,
                     (size_t)A.ld, B.buf, (size_t)B.off, (size_t)B.ld, beta, C.buf,
                     (size_t)C.off, (size_t)C.ld, &q, last);
    if (st != CLBlastSuccess) {
        /* CLBlast passes OpenCL errors through and uses -1024 and below for its own. */
        if (st > -1024)
            err_set(e, "CLBlastSgemm failed: %s", cl_error_name((cl_int)st));
        else
            err_set(e, "CLBlastSgemm failed: CLBlast status %d", (int)st);
        return -1;
    }
    return 0;
}

void baseline_clblast_release(void) { CLBlastClearCache(); }

#else

bool baseline_clblast_available(void) { return false; }

int baseline_clblast_enqueue(cl_command_queue q, gemm_shape s, float alpha, gemm_operand A,
                             gemm_operand B, float beta, gemm_operand C, cl_event *last,
                             errbuf *e)
{
    (void)q, (void)s, (void)alpha, (void)A, (void)B, (void)beta, (void)C, (void)last;
    err_set(e, "this clgemm was built without CLBlast (-Dclblast=disabled or not found)");
    return -1;
}

void baseline_clblast_release(void) {}

#endif
