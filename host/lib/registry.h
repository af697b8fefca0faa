/* The registry: the single truth of what runs.
 *
 * Two tables, both in registry.c:
 *   - algorithms: every public name.  A lesson step (1..10) is one .cl file; a purpose name
 *     (tensor_core, tensor_core_tf32x3) lists the steps it may run, best first.
 *   - variants: the ways to run a step, one row per kernel, element types and hardware.
 *     For a step, the device gets the first row whose element types and requirement fit.
 * Adding a step is one .cl file under cl/ plus one row in each table; nothing else. */
#ifndef CLGEMM_REGISTRY_H
#define CLGEMM_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "clerr.h"
#include "clgemm.h"
#include "device.h"

/* Element types of A and B a variant takes (bits of clgemm_dtype). */
#define DT_F32 (1u << CLGEMM_F32)
#define DT_F16 (1u << CLGEMM_F16)
#define DT_BF16 (1u << CLGEMM_BF16)
#define DT_16BIT (DT_F16 | DT_BF16)

/* What the device must have (hardware.c decides, and says why not). */
typedef enum hw_need {
    NEED_NONE,           /* any OpenCL device */
    NEED_NV_SM80,        /* NVIDIA compute capability 8.0 or newer: mma.sync */
    NEED_NV_SM90,        /* 9.x: wgmma, through the sm_90a PTX post-pass */
    NEED_NV_SM90_TMA,    /* 9.x and libcuda to encode the TMA tensor maps */
    NEED_INTEL_DPAS_SG8, /* cl_intel_subgroup_matrix_multiply_accumulate, 8-wide subgroups */
    NEED_INTEL_DPAS_SG16, /* ... 16-wide subgroups (Xe-HPC, Xe2) */
    NEED_AMD_MFMA,       /* gfx90a, gfx942 */
    NEED_AMD_WMMA,       /* gfx11 */
    NEED_EMULATION,      /* CLGEMM_EMULATE_MATRIX=1: portable emulation of a matrix unit */
} hw_need;

/* How the NDRange is laid out over the tiles of C. */
typedef enum launch_kind {
    LAUNCH_TILE,      /* (BN/TN, BM/TM) work-items, dimension 0 along N */
    LAUNCH_TILE_ROWS, /* (BM/TM, BN/TN), dimension 0 along M (naive: uncoalesced on purpose) */
    LAUNCH_WARPGROUPS, /* 1-D, 128 work-items per 64 rows of BM */
    LAUNCH_WARPGROUPS_PRODUCER, /* the same plus one producer warp of 32 */
    LAUNCH_GROUPS,    /* (WG, 1) work-items per BN columns x BM rows; BN from WG, KT, RN and
                         the vector width (step 11, plan.c) */
} launch_kind;

/* Work enqueued before the kernel, timed with it. */
typedef enum prepass_kind {
    PREPASS_NONE,
    PREPASS_TF32_PACK, /* B^T (and with PACKA or SPLIT, A) rounded to tf32 into scratch */
} prepass_kind;

typedef struct variant {
    const char *algorithm; /* the step it runs */
    unsigned dtypes;       /* DT_* */
    hw_need need;
    const char *backend;   /* "opencl", "nvidia mma.sync", "emulated wgmma+tma", ... */
    const char *file;      /* under cl/ */
    const char *kernel;
    const char *options;   /* build options of this hardware path */
    const char *precision; /* of the arithmetic on fp32 data; on 16-bit data the type's own */
    const char *defaults;  /* tile parameters */
    const char *extra_keys; /* keys the kernel reads besides those of `defaults` */
    launch_kind launch;
    prepass_kind prepass;
    bool tma;              /* takes TMA tensor maps as its last argument */
    bool batched;          /* runs a strided batch in one launch (built with GEMM_BATCHED),
                              dimension 2 of the NDRange naming the problem; else one launch
                              per problem.  Every kernel takes strideA, strideB, strideC after
                              ldc (a one-problem build ignores them) */
    int ld_multiple;       /* offsets and leading dimensions of A, B and C the kernel reads in
                              place; others go through the layout pre-pass (layout.h) */
    unsigned trans;        /* TRANS_A / TRANS_B: the transposed operands it reads where they
                              lie (built with GEMM_TRANS_A/B, gemm.h); others are packed.
                              C_ANY: C in place at any offset and ldc, not ld_multiple's */
    bool split_in_launch;  /* a split of K runs in one launch that sums the slices itself
                              (GEMM_KSPLIT: step 10 takes its arguments after the tensor maps,
                              others kslice, partials, ldp, tile_counts after the strides) */
} variant;

#define TRANS_A 1u
#define TRANS_B 2u
#define C_ANY 4u /* its stores check C's alignment themselves (step 10) */

typedef struct algo_def {
    clgemm_algorithm_desc desc; /* the public description (desc.step: 1..10, 0 purpose) */
    /* Purpose names: "step[:KEY=V,...] step ..." tried in order (the parameters are added to
     * that step's defaults); with emulation only, the last one is emulated. */
    const char *candidates;
    unsigned dtypes; /* purpose names: the element types they take (DT_*) */
    bool by_shape;   /* written for one class of shapes (skinny): auto and the purpose names
                        run it only where the shape rule says so (shape_rule.h) */
} algo_def;

const algo_def *algos_all(size_t *count);
const variant *variants_all(size_t *count);
const algo_def *algo_find(const char *name);
/* Looked up by prefix: "warp_tiled:BM=64" finds warp_tiled (len = length of the name). */
const algo_def *algo_find_n(const char *name, size_t len);

/* The variant of step `algo` for this device and element type, or NULL with e saying why
 * the device cannot run it.  Emulation rows are taken only when emulation is asked for. */
const variant *variant_choose(const device_info *dev, const algo_def *algo, clgemm_dtype dtype,
                              errbuf *e);
/* Whether any variant of the step takes this element type (on some device). */
bool algo_takes(const algo_def *algo, clgemm_dtype dtype);
/* Whether `key` is a parameter of the variant (in its defaults or its extra keys). */
bool variant_has_key(const variant *v, const char *key);
/* Every key the variant reads, space-separated, for error messages. */
void variant_keys(const variant *v, char *out, size_t size);
/* Whether any variant of the step (or of a purpose name's steps) reads `key`. */
bool algo_has_key(const algo_def *algo, const char *key);

#endif
