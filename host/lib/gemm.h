/* A plan: one registry row made ready for a device (program, kernels, launch shape, the
 * pre-pass and its scratch), then enqueued on cl_mem buffers any number of times. */
#ifndef CLGEMM_GEMM_H
#define CLGEMM_GEMM_H

#include <CL/cl.h>

#include "clerr.h"
#include "device.h"
#include "params.h"
#include "registry.h"
#include "shape.h"

typedef enum plan_status {
    PLAN_OK,
    PLAN_UNSUPPORTED,  /* this device or these parameters cannot run it; e says why */
    PLAN_INVALID,      /* the caller's parameters are malformed or unknown to the kernel */
    PLAN_BUILD_FAILED, /* the compiler refused; the build log comes back */
    PLAN_ERROR,        /* an OpenCL call failed */
} plan_status;

/* What one call asks of a kernel's build beyond its tile parameters.  Each field becomes a
 * -D define that cl/common.h documents, and a context keeps one plan per distinct build.
 * A field the chosen variant cannot honour is dropped at build time (trans_a on a kernel
 * that reads only untransposed A: that operand is packed instead, layout.h). */
typedef struct gemm_build {
    bool batched;          /* GEMM_BATCHED: a strided batch in dimension 2 (variant.batched) */
    bool trans_a, trans_b; /* GEMM_TRANS_A / GEMM_TRANS_B: the row-major problem's A is stored
                              K x M, B N x K, and the kernel reads them so (variant.trans) */
    int c_type;            /* GEMM_CTYPE: clgemm_dtype of C (0: float) */
    int epilogue;          /* GEMM_EPILOGUE: what the store applies (0: none) */
    bool bias_rows;        /* GEMM_BIAS_ROWS: the bias runs along the row-major problem's rows
                              (a column-major call, whose C is stored transposed) */
    bool trans_c;          /* GEMM_TRANS_C: C stored transposed (set by SWAP=1 only) */
} gemm_build;

/* The build of the swapped problem C^T = op(B)^T op(A)^T (SWAP=1): op(B)^T is B read the
 * other way, so each operand's transpose flips; the kernel's rows are C's columns. */
static inline gemm_build gemm_build_swapped(const gemm_build *b)
{
    gemm_build s = *b;
    s.trans_a = !b->trans_b;
    s.trans_b = !b->trans_a;
    s.bias_rows = !b->bias_rows;
    s.trans_c = !b->trans_c;
    return s;
}

static inline bool gemm_build_equal(const gemm_build *a, const gemm_build *b)
{
    return a->batched == b->batched && a->trans_a == b->trans_a && a->trans_b == b->trans_b &&
           a->c_type == b->c_type && a->epilogue == b->epilogue && a->bias_rows == b->bias_rows &&
           a->trans_c == b->trans_c;
}

typedef struct gemm_plan {
    const algo_def *algo;  /* the name asked for */
    const algo_def *step;  /* the step that runs: algo itself, or a purpose name's choice */
    const variant *variant;
    params params;
    cl_program program;
    cl_kernel kernel;
    size_t local[2];
    int bm, bn, bk;
    double build_ms;
    bool from_cache;
    const char *precision; /* of the arithmetic that runs (see precision_of in plan.c) */
    int dtype;             /* clgemm_dtype of A and B; C's is build.c_type */
    bool batched;          /* built with GEMM_BATCHED=1: launches over a batch (cl/common.h) */
    gemm_build build;      /* what it was built for, less what the variant cannot honour */
    /* Step 10: TMA tensor maps, their addresses filled in by the kernel (emulated: unused). */
    bool tma_emulated;
    /* PREPASS_TF32_PACK: with pack_a A, with pack_b B^T, rounded to tf32 into scratch
     * buffers (and every operand the kernel cannot read in place); split (SPLIT=1, tf32x3)
     * writes hi and lo halves. */
    bool pack_a, pack_b, split;
    /* PACKA=3: the kernel rounds A (with split, splits it) in registers (mma/tma_a_regs.h);
     * a_regs_t: A stored K x M, read M-major in place, where its rows lie on 16 bytes
     * (gemm_plan_reads), so the pre-pass leaves it. */
    bool a_regs, a_regs_t;
    /* tf32x3 with PACKB=2: the kernel splits B in local memory (cl/mma/tma_round.h). */
    bool b_split_local;
    cl_kernel pack_bt, round_a, pack_two;
    struct plan_scratch *scratch; /* their buffers, reused on the same in-order queue */
    /* SPLITK > 1: K in slices, a batched launch over them and a reduction (splitk.c); step
     * 10 (ksplit_fused) runs them in one launch that sums them itself (GEMM_KSPLIT). */
    int splitk;
    bool ksplit_fused;
    /* SWAP=1: the kernel computes C^T = op(B)^T op(A)^T (N x M) and stores it transposed, so
     * that a small M lies along the kernel's N (gemm_call.c swaps the operands). */
    bool swap;
    /* Step 10's PERSIST=G: a batch runs in about G groups per compute unit, each computing
     * its share of the problems one after another (enqueue.c). */
    unsigned compute_units;
    cl_program reduce_program;
    cl_kernel reduce;
} gemm_plan;

/* Builds `algo` (a step, or a purpose name's first candidate that this device runs) for
 * A and B of type dtype, with `overrides` ("BM=64 TM=4", may be NULL) over the defaults. */
plan_status gemm_plan_create(gemm_plan *plan, cl_context ctx, const device_info *dev,
                             const algo_def *algo, clgemm_dtype dtype, const char *overrides,
                             const gemm_build *build, char **log, errbuf *e);
void gemm_plan_release(gemm_plan *plan);
/* The same choice without building anything (program and kernels stay NULL): what
 * gemm_plan_create would build, or why the device cannot.  Nothing to release. */
plan_status gemm_plan_describe(gemm_plan *plan, const device_info *dev, const algo_def *algo,
                               clgemm_dtype dtype, const char *overrides, errbuf *e);

/* Checks "KEY=V,KEY=V" against every key any variant of algo reads (a device-independent
 * check, for input validation before anything is allocated). */
int gemm_params_check(const algo_def *algo, const char *overrides, errbuf *e);

/* Whether the plan's kernel reads (or writes) row-major operand `which` (0 A, 1 B, 2 C) where
 * it lies: the vectorized kernels need leading dimensions and offsets that are multiples of
 * their vector width (variant.ld_multiple; C anywhere with C_ANY).  Others go
 * through the layout pre-pass (layout.h). */
bool gemm_plan_reads(const gemm_plan *plan, int which, gemm_operand X);
/* Whether it reads that operand in place only slowly, so that one copy first is faster. */
bool gemm_plan_reads_slowly(const gemm_plan *plan, int which, gemm_operand X);

/* The plan's scratch buffers, one slot per packed operand: step 10's TF32 pre-pass and the
 * layout pre-pass (layout.c).  gemm_scratch_begin starts a call on queue q: the buffers are
 * kept when q is the in-order queue of the last call (its commands run after that call's),
 * else dropped (the queue keeps them alive until their commands ran).  Then
 * gemm_scratch_get gives a slot's buffer of at least `bytes` for the rest of the call.  Both
 * under the plan's enqueue lock. */
enum {
    SCRATCH_TF32_BT,
    SCRATCH_TF32_A,
    SCRATCH_LAYOUT_A,
    SCRATCH_LAYOUT_B,
    SCRATCH_LAYOUT_C,
    SCRATCH_SPLITK,        /* split-K's partial products */
    SCRATCH_KSPLIT_COUNTS, /* GEMM_KSPLIT's finished slices per block (kept at zero) */
    SCRATCH_TMA_MAPS,      /* step 10's per-group copies of the tensor maps (enqueue.c) */
    SCRATCH_SLOTS
};
void gemm_scratch_begin(const gemm_plan *plan, cl_command_queue q);
/* Step 10's keep slots of tensor maps, which live in the SCRATCH_TMA_MAPS buffer (reset with
 * it: host/lib/tma_map_cache.h). */
struct tma_map_cache *gemm_scratch_kept_maps(const gemm_plan *plan);
cl_mem gemm_scratch_get(const gemm_plan *plan, cl_command_queue q, int slot, size_t bytes,
                        errbuf *e);
/* The same, filled with zeros on q where the buffer is new (a reused one is as left). */
cl_mem gemm_scratch_get_zeroed(const gemm_plan *plan, cl_command_queue q, int slot,
                               size_t bytes, errbuf *e);

/* Whether q runs commands out of order; then the commands of one call are ordered by
 * gemm_queue_fence (a barrier; nothing on an in-order queue). */
bool gemm_queue_unordered(cl_command_queue q);
int gemm_queue_fence(cl_command_queue q, bool unordered, errbuf *e);

/* A strided batch in one launch: count problems, problem b reading A, B and C stride[0..2]
 * elements times b past the operands' offsets (0: all share it).  Only a plan whose variant
 * is batched takes count > 1; its kernel finds its problem in dimension 2 of the NDRange. */
typedef struct gemm_batch {
    int count;
    int stride[3];
} gemm_batch;

/* The most problems of one launch: CUDA grids take at most 65535 blocks along z, and
 * NVIDIA's OpenCL lays dimension 2 of the NDRange there.  Larger batches are split. */
#define GEMM_BATCH_MAX_LAUNCH 65535

/* Step 10's copy engine reads rows (and a batch's problems) that start on 16 bytes, as its
 * tensor maps need, but those 16 bytes off 32 at up to half speed (probe295 in
 * bench/results/2026-11-28_nvidia-h200/probes): its B, read again by every block of A, is
 * copied where its rows do not lie on this many bytes (plan.c for 16-bit data,
 * prepass_tf32.c for fp32), and the copies' rows lie on them. */
#define TMA_FAST_ROW_BYTES 32

/* Call gemm_scratch_begin(plan, q) first, once per call.  batch may be NULL (one problem).
 * bias: the epilogue's vector (buf NULL when the plan's build adds none), shared by the batch.
 * last (may be NULL) receives the GEMM kernel's event; first (may be NULL) the event of the
 * first command enqueued, a pre-pass where the plan has one (else the same event as last):
 * the device time of the whole GEMM runs from first's start to last's end. */
int gemm_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s, float alpha,
                 gemm_operand A, gemm_operand B, float beta, gemm_operand C,
                 gemm_operand bias, const gemm_batch *batch, cl_event *first, cl_event *last,
                 errbuf *e);

/* One launch of a GEMM_KSPLIT plan (step 10) over `parts` slices of `len` values of K (a
 * multiple of the plan's BK): partial products in `partials` (parts x M x ldp floats) and
 * per block of C the count of its finished slices in `counts` (zeros, left zero). */
typedef struct gemm_ksplit {
    int parts, len, ldp;
    cl_mem partials, counts;
} gemm_ksplit;
/* A split's kernel arguments from *i on (advancing it), as step 10 and step 11 take them
 * whether or not they were built to read them: the slice's length (K without ks), the partial
 * products, their row length and the blocks' counts (NULL and 0 without ks). */
int gemm_set_split_args(cl_kernel k, cl_uint *i, gemm_shape s, const gemm_ksplit *ks,
                        errbuf *e);
int gemm_enqueue_split(const gemm_plan *plan, cl_command_queue q, gemm_shape s, float alpha,
                       gemm_operand A, gemm_operand B, float beta, gemm_operand C,
                       gemm_operand bias, const gemm_ksplit *ks, cl_event *first,
                       cl_event *last, errbuf *e);

/* Split-K (splitk.c).  splitk_create builds the reduction for a plan with SPLITK > 1 with the
 * defines of C's type and epilogue (the plan's kernel is built without them); splitk_slices
 * gives the slices K is cut into (0: the plan does not split; else at least 1, every problem
 * of a split plan goes through the reduction) and their length; splitk_enqueue runs the
 * sliced GEMM and the reduction into C (first: the first command's event, last: the
 * reduction's; call gemm_scratch_begin first). */
int splitk_create(gemm_plan *plan, cl_context ctx, const device_info *dev,
                  const char *build_defines, char **log, errbuf *e);
void splitk_release(gemm_plan *plan);
int splitk_slices(const gemm_plan *plan, int K, int *ks);
int splitk_enqueue(const gemm_plan *plan, cl_command_queue q, gemm_shape s, float alpha,
                   gemm_operand A, gemm_operand B, float beta, gemm_operand C,
                   gemm_operand bias, cl_event *first, cl_event *last, errbuf *e);

/* enqueue.c's part of a plan: the pre-pass kernels and scratch (0, or -1 with e set). */
int prepass_create(gemm_plan *plan, errbuf *e);
void prepass_release(gemm_plan *plan);

#endif
