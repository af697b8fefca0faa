/* libclgemm: OpenCL GEMM kernels as a library.
 *
 *   clgemm_context *ctx;
 *   if (clgemm_open("nvidia", &ctx) != CLGEMM_SUCCESS)            // or NULL: first GPU
 *       fprintf(stderr, "%s\n", clgemm_last_error());
 *   clgemm_sgemm(ctx, NULL, M, N, K, 1.0f, A, 0, K, B, 0, N, 0.0f, C, 0, N, NULL, &ev);
 *   clgemm_close(ctx);
 *
 * Matrices are row-major and live in caller-owned cl_mem buffers: element (r, c) of A is
 * A[offA + r * lda + c] (in floats).  C = alpha * A * B + beta * C; with beta == 0, C is not
 * read.  clgemm_gemm (at the end) takes column-major data, transposes, strided batches,
 * 16-bit inputs and outputs and fused epilogues (bias, ReLU, GELU) through one descriptor.
 *
 * Threads: every function may be called from several threads at once.  One context may be
 * shared: its kernels are built once, under a lock, and each GEMM sets its arguments and
 * enqueues under that kernel's lock, so threads running GEMMs on their own queues through one
 * context do not disturb each other.  Device enumeration happens once per process.
 *
 * Compiled kernels are cached on disk (see clgemm_cache_dir): $CLGEMM_CACHE_DIR, else
 * $XDG_CACHE_HOME/clgemm, else ~/.cache/clgemm; CLGEMM_NO_CACHE=1 turns the cache off.
 */
#ifndef CLGEMM_H
#define CLGEMM_H

#include <stddef.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define CLGEMM_API __attribute__((visibility("default")))
#else
#define CLGEMM_API
#endif

typedef enum clgemm_status {
    CLGEMM_SUCCESS = 0,
    CLGEMM_ERROR_INVALID_ARGUMENT,   /* a bad size, spec, pointer or buffer too small */
    CLGEMM_ERROR_NO_DEVICE,          /* no OpenCL platform, or no device matches */
    CLGEMM_ERROR_UNKNOWN_ALGORITHM,  /* no algorithm of that name */
    CLGEMM_ERROR_UNSUPPORTED,        /* the device or these operands cannot run it */
    CLGEMM_ERROR_BUILD_FAILED,       /* the kernel did not compile (see the build log) */
    CLGEMM_ERROR_OPENCL,             /* an OpenCL call failed: clgemm_last_error names it */
    CLGEMM_ERROR_OUT_OF_HOST_MEMORY,
} clgemm_status;

/* A fixed sentence for every status. */
CLGEMM_API const char *clgemm_status_string(clgemm_status status);
/* The details of the calling thread's last failure (which call, which OpenCL error, why a
 * device was refused); "" when the last call succeeded. */
CLGEMM_API const char *clgemm_last_error(void);
CLGEMM_API const char *clgemm_version(void);

/* ---- devices ---------------------------------------------------------------------- */

typedef struct clgemm_device_desc {
    cl_platform_id platform;
    cl_device_id id;
    unsigned platform_index, device_index; /* the "P:D" spec of this device */
    char platform_name[128];
    char name[128];
    char vendor[128];
    char driver[64];
    char version[128];
    cl_device_type type;
    cl_uint compute_units;
    cl_ulong global_mem, max_alloc, local_mem;
    size_t max_work_group;
    int nv_cc_major, nv_cc_minor; /* NVIDIA compute capability, -1 elsewhere */
    char *extensions;
} clgemm_device_desc;

/* Every device of every platform, enumerated once per process. */
CLGEMM_API clgemm_status clgemm_devices(const clgemm_device_desc **devices, size_t *count);

/* Resolves a device spec into indices of clgemm_devices():
 *   NULL or ""    the first GPU, else the first device
 *   "all"         every device
 *   "P:D"         platform P, device D;   "N"   the N-th device
 *   other text    the first device whose platform, name, vendor or version contains it
 *                 (case-insensitive), e.g. "nvidia", "pocl", "h100"
 * indices must hold as many entries as there are devices. */
CLGEMM_API clgemm_status clgemm_select_devices(const char *spec, size_t *indices,
                                               size_t *count);

/* The storage type of A and B (clgemm_gemm_desc.ab_type) and of C (c_type). */
typedef enum clgemm_dtype {
    CLGEMM_F32 = 0,  /* float */
    CLGEMM_F16 = 1,  /* IEEE binary16 bit patterns in cl_ushort (cl_half) */
    CLGEMM_BF16 = 2, /* bfloat16 bit patterns (the top half of a float) in cl_ushort */
} clgemm_dtype;

/* ---- algorithms ------------------------------------------------------------------- */

typedef struct clgemm_algorithm_desc {
    const char *name;     /* the lesson steps "naive" ... "wgmma_tma", then the purpose names
                             "tensor_core" and "tensor_core_tf32x3" */
    const char *summary;  /* one line */
    const char *defaults; /* default tile parameters, "BM=128 BN=128 ..." (a purpose name:
                             "", those of the step it runs) */
    int ld_multiple;      /* its kernel reads operands in place when their leading
                             dimensions and offsets are multiples of this; others are copied
                             first (see clgemm_gemm) */
    const char *precision; /* of the arithmetic: "fp32", "tf32", "tf32x3" (the backend a device
                              gets, or 16-bit inputs, may differ: see clgemm_build_info) */
    int step;             /* the lesson step 1..10 (cl/NN_*.cl), 0 for a purpose name */
} clgemm_algorithm_desc;

CLGEMM_API size_t clgemm_algorithm_count(void);
/* In progression order; NULL past the end. */
CLGEMM_API const clgemm_algorithm_desc *clgemm_algorithm(size_t index);
CLGEMM_API const clgemm_algorithm_desc *clgemm_find_algorithm(const char *name);

/* ---- contexts --------------------------------------------------------------------- */

typedef struct clgemm_context clgemm_context;

/* A context and an in-order queue with profiling on the device a spec names. */
CLGEMM_API clgemm_status clgemm_open(const char *device_spec, clgemm_context **ctx);
/* The same for the index-th device of clgemm_devices(). */
CLGEMM_API clgemm_status clgemm_open_device(size_t index, clgemm_context **ctx);
/* Work on an existing queue (and its context and device); both are retained until close. */
CLGEMM_API clgemm_status clgemm_wrap(cl_command_queue queue, clgemm_context **ctx);
CLGEMM_API void clgemm_close(clgemm_context *ctx);

CLGEMM_API cl_context clgemm_cl_context(const clgemm_context *ctx);
CLGEMM_API cl_command_queue clgemm_cl_queue(const clgemm_context *ctx);
CLGEMM_API const clgemm_device_desc *clgemm_device(const clgemm_context *ctx);

typedef struct clgemm_build_info {
    char params[128];  /* the tile parameters it was built with */
    double build_ms;   /* wall time of the build (or of loading it from the cache) */
    int from_cache;    /* 1 when the compiled binary came from the on-disk cache */
    const char *log;   /* the compiler's log when the build failed, else NULL; owned by ctx */
    const char *backend;   /* "opencl", "nvidia mma.sync", "nvidia wgmma+tma (sm_90a)",
                              "intel dpas", "amd mfma", "emulated mma.sync", ... */
    const char *precision; /* of the arithmetic: "fp32", "tf32" (both operands rounded to
                              nearest), "tf32t" (A truncated by the tensor core), "tf32x3",
                              "f16", "bf16" */
    const char *runs;      /* the lesson step that runs: the name itself, or what a purpose
                              name (tensor_core, tensor_core_tf32x3) chose on this device */
    const char *file;      /* its kernel file under cl/, and the kernel in it */
    const char *kernel;
} clgemm_build_info;

/* Wherever an algorithm is named, "name:KEY=VALUE,KEY=VALUE" overrides its tile parameters
 * (e.g. "warp_tiled:BM=64,BN=64"); each variant is built once per context.  A key the
 * algorithm's kernel does not read (case matters: BM, not bm) is CLGEMM_ERROR_INVALID_ARGUMENT
 * with a message naming the keys it has. */

/* Checks a name and its parameters without a device: CLGEMM_ERROR_UNKNOWN_ALGORITHM, or
 * CLGEMM_ERROR_INVALID_ARGUMENT for a malformed or unknown key or a value out of 0..65536.
 * (A key some other device's kernel of the algorithm reads passes here and is refused by the
 * build on a device whose kernel does not read it.) */
CLGEMM_API clgemm_status clgemm_check_algorithm(const char *algorithm);

/* Builds an algorithm for the context's device now rather than at its first GEMM, and says
 * whether the device can run it (CLGEMM_ERROR_UNSUPPORTED with the reason in
 * clgemm_last_error) or whether it failed to compile (info->log).  info may be NULL. */
CLGEMM_API clgemm_status clgemm_prepare(clgemm_context *ctx, const char *algorithm,
                                        clgemm_build_info *info);

/* Enqueues C = alpha*A*B + beta*C on `queue` (NULL: the context's queue), which must belong
 * to the context's cl_context and device.  algorithm NULL picks the fastest fp32 one (tuned,
 * else the last fp32 step of the progression).  Any offset and leading dimension (>= the row
 * length) is accepted: an operand the kernel cannot read where it lies (the float4 kernels
 * need multiples of 4) is copied first, and a C it cannot write where it lies is computed
 * aside and copied back (the slow path; see clgemm_gemm).  event (may be NULL) receives the
 * event of the last command, the GEMM kernel or that copy-back; release it.  Pre-passes (those
 * copies, wgmma_tma's TF32 packing on fp32 data) run before it: clgemm_sgemm_events gives
 * both ends.  C must not share bytes with A or B (CLGEMM_ERROR_INVALID_ARGUMENT).  It is
 * clgemm_gemm with row-major, N, N, one problem. */
CLGEMM_API clgemm_status clgemm_sgemm(clgemm_context *ctx, const char *algorithm, size_t M,
                                      size_t N, size_t K, float alpha, cl_mem A, size_t offA,
                                      size_t lda, cl_mem B, size_t offB, size_t ldb, float beta,
                                      cl_mem C, size_t offC, size_t ldc,
                                      cl_command_queue queue, cl_event *event);

/* As clgemm_sgemm, with the events of the first command it enqueued (a pre-pass, or the GEMM
 * kernel itself) and of the last (the GEMM kernel, or C's copy-back): the device time of the
 * whole operation runs from first's CL_PROFILING_COMMAND_START to last's
 * CL_PROFILING_COMMAND_END.  Either may be NULL; release both. */
CLGEMM_API clgemm_status clgemm_sgemm_events(clgemm_context *ctx, const char *algorithm,
                                             size_t M, size_t N, size_t K, float alpha,
                                             cl_mem A, size_t offA, size_t lda, cl_mem B,
                                             size_t offB, size_t ldb, float beta, cl_mem C,
                                             size_t offC, size_t ldc, cl_command_queue queue,
                                             cl_event *first, cl_event *last);

/* What clgemm_sgemm (dtype CLGEMM_F32) or clgemm_gemm_16bit would run for these sizes,
 * offsets and leading dimensions, as a name that runs the same kernel with the same
 * parameters: the name itself when it runs as given, else "step:KEY=V,..." (a tuned
 * variant, or what a purpose name chose on this device).  It is the kernel that runs after
 * any packing of the operands: offsets and leading dimensions decide whether they are
 * packed, and which kernel runs in one case only: TF32 on step 10 that would round A in
 * registers rounds it in its copy instead where A must be copied anyway (its rows off 16
 * bytes; faster so).  algorithm NULL (auto) gives the fastest tuned fp32
 * algorithm near this size, else the last fp32 step of the progression that runs on the
 * device (matrix-unit algorithms change the arithmetic and run only when named).  The kernel is built to know whether it runs.  A buffer too small for the
 * answer is CLGEMM_ERROR_INVALID_ARGUMENT (nothing is cut short).  The tuning database:
 * $CLGEMM_TUNING_FILE, else $XDG_CONFIG_HOME/clgemm/tuning.json, else
 * ~/.config/clgemm/tuning.json, then the defaults shipped for measured devices. */
CLGEMM_API clgemm_status clgemm_resolve_operands(clgemm_context *ctx, const char *algorithm,
                                                 clgemm_dtype dtype, size_t M, size_t N,
                                                 size_t K, size_t offA, size_t lda,
                                                 size_t offB, size_t ldb, size_t offC,
                                                 size_t ldc, char *out, size_t size);
/* The same for fp32 data with tight, aligned operands (offsets 0, lda K, ldb N, ldc N). */
CLGEMM_API clgemm_status clgemm_resolve(clgemm_context *ctx, const char *algorithm, size_t M,
                                        size_t N, size_t K, char *out, size_t size);
/* Why the last clgemm_resolve* call of this thread (or the choice of a GEMM call) chose what
 * it named: the shape class and its rule, the tuning entry, or the default. */
CLGEMM_API const char *clgemm_resolve_reason(void);
/* The shape rules of the tuning database for ctx's device (what auto and the purpose names
 * run per class of shapes), one line each, into out (may be NULL); returns the length of the
 * whole text, which is written only when it fits. */
CLGEMM_API size_t clgemm_shape_rules(clgemm_context *ctx, char *out, size_t size);

/* ---- 16-bit inputs ----------------------------------------------------------------- */


/* "f32", "f16", "bf16"; NULL for anything else. */
CLGEMM_API const char *clgemm_dtype_name(clgemm_dtype dtype);

/* float -> 16-bit bits, rounding to nearest, ties to even (subnormals kept; beyond the
 * format's range +-inf; NaN stays a quiet NaN of the same sign), and back (exact).
 * dtype must be CLGEMM_F16 or CLGEMM_BF16 (anything else converts as bf16). */
CLGEMM_API cl_ushort clgemm_float_to_16bit(float x, clgemm_dtype dtype);
CLGEMM_API float clgemm_16bit_to_float(cl_ushort bits, clgemm_dtype dtype);

/* 1 when the algorithm ("name" or "name:params") has a kernel for inputs of this type, on
 * some device: the fp32 steps take only CLGEMM_F32, wgmma only the 16-bit types, mma,
 * wgmma_tma and tensor_core all three; else 0. */
CLGEMM_API int clgemm_algorithm_has_dtype(const char *algorithm, clgemm_dtype dtype);

/* What clgemm_prepare_dtype would build, without building anything: info's params, backend,
 * precision, runs, file and kernel (build_ms 0, log NULL), or CLGEMM_ERROR_UNSUPPORTED with
 * the reason when the device cannot run it (clgemm --algo list prints this). */
CLGEMM_API clgemm_status clgemm_describe(clgemm_context *ctx, const char *algorithm,
                                         clgemm_dtype dtype, clgemm_build_info *info);

/* clgemm_prepare for inputs of the given type (CLGEMM_F32: the same as clgemm_prepare). */
CLGEMM_API clgemm_status clgemm_prepare_dtype(clgemm_context *ctx, const char *algorithm,
                                              clgemm_dtype dtype, clgemm_build_info *info);

/* C = alpha * A * B + beta * C with A and B of 16-bit values (dtype CLGEMM_F16 or
 * CLGEMM_BF16; buffers of cl_ushort) and C of floats, accumulated in fp32.  Offsets and
 * leading dimensions count elements; the kernels read multiples of 8 in place (16-byte
 * loads; step 10 its B only at multiples of 16, faster copied otherwise) and others after a
 * copy, as clgemm_sgemm.  algorithm NULL means "tensor_core".  The algorithm's 16-bit defaults are used unless parameters are
 * given: the tuning database holds fp32 measurements and is not consulted.  Otherwise as
 * clgemm_sgemm. */
CLGEMM_API clgemm_status clgemm_gemm_16bit(clgemm_context *ctx, const char *algorithm,
                                           clgemm_dtype dtype, size_t M, size_t N, size_t K,
                                           float alpha, cl_mem A, size_t offA, size_t lda,
                                           cl_mem B, size_t offB, size_t ldb, float beta,
                                           cl_mem C, size_t offC, size_t ldc,
                                           cl_command_queue queue, cl_event *event);

/* ---- the general call: layouts, transposes, any leading dimension, batches ---------- */

typedef enum clgemm_layout {
    CLGEMM_ROW_MAJOR = 0, /* element (r, c) of a matrix at off + r * ld + c */
    CLGEMM_COL_MAJOR = 1, /* element (r, c) at off + c * ld + r */
} clgemm_layout;

typedef enum clgemm_op {
    CLGEMM_OP_N = 0, /* the operand as stored */
    CLGEMM_OP_T = 1, /* its transpose: op(A) is M x K, so A is stored K x M */
} clgemm_op;

/* What the store does after alpha * op(A) op(B) + beta * C, fused into the GEMM kernel (no
 * second pass): x + bias[j] (one value per column j of C), then the activation, then C's type.
 * GELU is its tanh form, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). */
typedef enum clgemm_epilogue {
    CLGEMM_EPILOGUE_NONE = 0,
    CLGEMM_EPILOGUE_BIAS = 1,
    CLGEMM_EPILOGUE_RELU = 2,
    CLGEMM_EPILOGUE_BIAS_RELU = 3,
    CLGEMM_EPILOGUE_GELU = 4,
    CLGEMM_EPILOGUE_BIAS_GELU = 5,
} clgemm_epilogue;

/* "none", "bias", "relu", "bias_relu", "gelu", "bias_gelu"; NULL for anything else. */
CLGEMM_API const char *clgemm_epilogue_name(clgemm_epilogue epilogue);

/* C[i] = epilogue(alpha * op(A[i]) * op(B[i]) + beta * C[i]) for i < batch.  Zero-initialise
 * it and set what you use: the zero of every field is its plain default (row-major, N, N, one
 * problem, fp32 in and out, no epilogue, auto).  Sizes, offsets, leading dimensions and strides count elements of the
 * operand's type.  Every leading dimension must hold a stored row (row-major) or column
 * (column-major) and every offset is allowed: a layout or alignment a kernel cannot read
 * reaches it through a packing pre-pass, timed with the call (first/last events).
 *
 * How it runs: a column-major problem is the row-major (N, M, K) one with A and B swapped
 * (no data moves).  The kernels read row-major, untransposed operands at offsets and leading
 * dimensions that are multiples of their ld_multiple (step 7 with READT=1 also reads
 * transposed fp32 operands, step 11 a transposed B, step 10 transposed 16-bit operands, and
 * step 10 writes C at any alignment); any other operand is first copied into a scratch
 * buffer of the library (one pass per operand, for every problem of a batch at once; once
 * for a shared operand, stride 0), transposing through local memory.  A C not so aligned is
 * the slow path: it is computed in scratch (after a copy-in when beta != 0) and copied
 * back, two more passes.  Row-major operands with aligned offsets and leading dimensions,
 * op N, run with no pass at all.  A batch is one kernel launch for all its problems (the
 * batch in dimension 2 of the NDRange), its packed operands' copies one after another;
 * a misaligned C (or a split of K) makes it a loop of GEMMs on the host, serialised per
 * algorithm and parameters.  Every index must fit 32 bits: off + (batch-1) * stride + one
 * matrix's extent < 2^31 elements (a batch whose packed copies would not fits loops too). */
typedef struct clgemm_gemm_desc {
    const char *algorithm; /* as clgemm_sgemm's ("name" or "name:KEY=V,..."); NULL: auto for
                              fp32 data, "tensor_core" for 16-bit data */
    clgemm_layout layout;  /* of A, B and C alike */
    clgemm_op op_a, op_b;
    size_t M, N, K;        /* op(A) is M x K, op(B) K x N, C M x N */
    float alpha, beta;     /* beta == 0: C is not read */
    clgemm_dtype ab_type;  /* of A and B: CLGEMM_F32, or CLGEMM_F16/BF16 bits in cl_ushort */
    cl_mem A;
    size_t off_a, ld_a, stride_a; /* stride: elements from A[i] to A[i+1]; 0: one A shared */
    cl_mem B;
    size_t off_b, ld_b, stride_b;
    cl_mem C;              /* of c_type */
    size_t off_c, ld_c, stride_c; /* with batch > 1, stride_c >= one C's extent, so that
                                     C[i] and C[j] share no element; no C[i] may share a
                                     byte with any A[j] or B[j] */
    size_t batch;          /* 0 or 1: one problem */
    /* C's element type: CLGEMM_F32 (float), or CLGEMM_F16/BF16 bits in cl_ushort, computed in
     * fp32 and rounded once to nearest even at the store; beta * C reads C in its type. */
    clgemm_dtype c_type;
    clgemm_epilogue epilogue;
    /* The bias of the _BIAS epilogues: N values of c_type at bias[off_bias + j], one per column
     * j of C (whatever the layout), shared by every problem of a batch; it may not share a
     * byte with C.  Required with a _BIAS epilogue and NULL otherwise. */
    cl_mem bias;
    size_t off_bias;
} clgemm_gemm_desc;

/* Enqueues the whole call on `queue` (NULL: the context's; an out-of-order queue gets
 * barriers between the call's commands).  Every field is checked before anything is built or
 * enqueued: a bad one is CLGEMM_ERROR_INVALID_ARGUMENT with a message naming the field (an
 * unknown algorithm CLGEMM_ERROR_UNKNOWN_ALGORITHM, one that takes no such data
 * CLGEMM_ERROR_UNSUPPORTED).  first and last (either may be NULL; release them) are the first
 * and last commands enqueued (the first pre-pass, or the first GEMM; the last GEMM, or C's
 * copy-back), pre-passes and every problem of the batch included.  clgemm_sgemm,
 * clgemm_sgemm_events and clgemm_gemm_16bit are this call with row-major, N, N, batch 1. */
CLGEMM_API clgemm_status clgemm_gemm(clgemm_context *ctx, const clgemm_gemm_desc *desc,
                                     cl_command_queue queue, cl_event *first, cl_event *last);

/* What clgemm_gemm would run for this descriptor (buffers included: every field is checked as
 * clgemm_gemm checks it), as clgemm_resolve writes it: for a batch, the kernel that runs
 * the whole batch in one launch where one can.  Nothing is enqueued. */
CLGEMM_API clgemm_status clgemm_resolve_gemm(clgemm_context *ctx, const clgemm_gemm_desc *desc,
                                             char *out, size_t size);

/* Builds what clgemm_gemm would run for this descriptor (as clgemm_resolve_gemm names it:
 * the kernel built for the call's transposes, C type, epilogue and batch, which may differ
 * from the plain build clgemm_prepare_dtype makes of the same name) and fills info as
 * clgemm_prepare does, its log also where the build failed.  Nothing is enqueued. */
CLGEMM_API clgemm_status clgemm_prepare_gemm(clgemm_context *ctx, const clgemm_gemm_desc *desc,
                                             clgemm_build_info *info);

/* Which operands clgemm_gemm would copy through the layout pre-pass for this descriptor
 * (transposed where its kernel cannot read them so, or misaligned for it), as bits of
 * *operands: 1 A, 2 B, 4 C (the caller's names); 0 when every operand is read in place.
 * A kernel's own pre-pass (step 10's TF32 rounding) is not a layout copy.  Nothing is
 * enqueued. */
#define CLGEMM_PACKS_A 1u
#define CLGEMM_PACKS_B 2u
#define CLGEMM_PACKS_C 4u
CLGEMM_API clgemm_status clgemm_resolve_packing(clgemm_context *ctx, const clgemm_gemm_desc *desc,
                                                unsigned *operands);

/* The directory of the on-disk kernel cache, or NULL when the cache is off. */
CLGEMM_API const char *clgemm_cache_dir(void);

#ifdef __cplusplus
}
#endif

#endif
