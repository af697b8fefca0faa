/* One algorithm made ready for a device (a "plan") and enqueued on cl_mem buffers. */
#ifndef CLGEMM_GEMM_H
#define CLGEMM_GEMM_H

#include <CL/cl.h>

#include "algos.h"
#include "clerr.h"
#include "device.h"
#include "params.h"
#include "shape.h"



typedef enum plan_status {
    PLAN_OK,
    PLAN_UNSUPPORTED,  /* this device or these parameters cannot run it; e says why */
    PLAN_BUILD_FAILED, /* the compiler refused; the build log comes back */
    PLAN_ERROR,        /* an OpenCL call failed */
} plan_status;

typedef struct gemm_plan {
    const algo_def *algo;
    params params;
    cl_program program;
    cl_kernel kernel;
    size_t local[2];
    int bm, bn, tm, tn;
    double build_ms;
    bool from_cache;
    const char *backend, *precision; /* see backend.h */
    int dtype;       /* of A and B: 0 float, 1 f16, 2 bf16 (clgemm_dtype); C is float */
    int ld_multiple; /* offsets and leading dimensions must be multiples of this */
    /* Kernels fed by TMA copies (TMA=1 in their parameters, cl/10_wgmma_tma.cl) take the
     * tensor maps of A and B as a last argument; set_maps fills in their addresses. */
    bool tma, tma_emulated;
    cl_kernel set_maps;
    int bk;
    /* TF32=1 kernels of 10_wgmma_tma.cl read B^T, which a pre-pass (pack_bt) writes into a
     * scratch buffer at each enqueue, and with PACKA=1 A rounded to tf32 (round_a). */
    bool pack_b, pack_a, split; /* split: SPLIT=1, tf32x3 (packed hi and lo halves) */
    cl_kernel pack_bt, round_a;
    struct plan_scratch *scratch; /* their buffers, reused on the same in-order queue */
} gemm_plan;

/* Builds the algorithm's kernel with its registry defaults overridden by `overrides`
 * ("BM=64 TM=4", may be NULL) and checks the launch fits the device.  dtype 1 or 2 (f16,
 * bf16) builds its 16-bit kernel instead (backend_choose_16bit), with that kernel's
 * defaults; the enqueue is the same, on buffers of ushort. */
plan_status gemm_plan_create(gemm_plan *plan, cl_context ctx, const device_info *dev,
                             const algo_def *algo, int dtype, const char *overrides,
                             char **log, errbuf *e);
void gemm_plan_release(gemm_plan *plan);

/* Whether the plan can run on these operands (the vectorized kernels need leading
 * dimensions and offsets that are multiples of their vector width). */
bool gemm_plan_accepts(const gemm_plan *plan, gemm_operand A, gemm_operand B, gemm_operand C,
                       errbuf *e);

/* last (may be NULL) receives the GEMM kernel's event; first (may be NULL) the event of the
 * first command enqueued, a pre-pass where the plan has one (else the same event as last):
 * the device time of the whole GEMM runs from first's start to last's end. */
int gemm_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s, float alpha,
                 gemm_operand A, gemm_operand B, float beta, gemm_operand C, cl_event *first,
                 cl_event *last, errbuf *e);

#endif
