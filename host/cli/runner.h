/* Run a list of algorithms on one device: build, verify, time, for one problem size.
 * A session keeps a libclgemm context (and so the built kernels), so a sweep over sizes
 * builds once.  Built on the public API (clgemm.h) only, plus the CLBlast baseline. */
#ifndef CLGEMM_RUNNER_H
#define CLGEMM_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "clerr.h"
#include "clgemm.h"
#include "shape.h"

typedef enum row_status {
    ROW_OK,           /* verified within tolerance */
    ROW_FAIL,         /* wrong result */
    ROW_UNCHECKED,    /* --no-check */
    ROW_UNSUPPORTED,  /* the device (or the operands) cannot run it; note says why */
    ROW_BUILD_FAILED, /* the kernel did not compile; build_log has the compiler's words */
    ROW_ERROR,        /* an OpenCL call failed at run time; note names it */
} row_status;

const char *row_status_name(row_status s);

/* "row" / "col", and "NN", "NT", "TN" or "TT" (op_a, then op_b). */
const char *layout_name(clgemm_layout layout);
const char *trans_name(clgemm_op op_a, clgemm_op op_b);

/* The name of the CLBlast row among the algorithm names of a request. */
#define BASELINE_NAME "clblast"
/* The row that lets the library pick (tuning database, else the last step). */
#define AUTO_NAME "auto"

typedef struct run_row {
    const char *name; /* a libclgemm algorithm (maybe NAME:params), "auto", or BASELINE_NAME */
    bool baseline;
    char variant[256]; /* what ran: the name with its tuned parameters, or auto's choice */
    row_status status;
    char params[128];
    char note[512];
    char *build_log; /* owned, for ROW_BUILD_FAILED */
    int runs;
    double ms_median, ms_min, gflops;
    double gbps; /* bytes of A, B and C (C twice when beta != 0) / median time; NaN if none */
    double vs_baseline; /* CLBlast's median time / ours: above 1 is faster; NaN if none */
    double error, tolerance; /* NaN when not checked */
    double build_ms;         /* building (or loading from the cache) the kernel; NaN if none */
    char precision[16];      /* of the arithmetic that ran: fp32, tf32, tf32x3, f16, bf16 */
    char backend[32];        /* opencl, nvidia mma.sync, emulated mma.sync, clblast ... */
    int from_cache;          /* 1 cache hit, 0 compiled, -1 not applicable */
    bool bits16;             /* ran on the 16-bit copies of A and B (--dtype f16/bf16) */
    bool plain;              /* CLBlast's row in a run with an epilogue or a 16-bit C: the
                                plain fp32 GEMM of the same shapes */
    bool listed_by_all;      /* put in the list by 'all' (or the default), not named */
} run_row;

typedef enum check_mode {
    CHECK_AUTO, /* full reference for small problems, samples (+ CLBlast) for large */
    CHECK_FULL, /* full reference whatever the size */
    CHECK_NONE, /* --no-check */
} check_mode;

typedef struct run_request {
    gemm_shape shape;
    float alpha, beta;
    const char *const *algos; /* names; BASELINE_NAME for CLBlast */
    size_t nalgos;
    const bool *listed_by_all; /* per name: came from 'all', not named (NULL: all named) */
    int iters;          /* timed runs; 0 picks enough to cover min_seconds */
    int warmup;         /* untimed runs before */
    double min_seconds; /* for iters == 0 */
    check_mode check;
    uint64_t seed;
    /* The operands as the general call takes them (clgemm_gemm_desc): A, B and C in one
     * layout, op(A) M x K stored as M x K (N) or K x M (T), likewise op(B). */
    clgemm_layout layout;
    clgemm_op op_a, op_b;
    int ld_multiple; /* ld_pad < 0: lines (rows, or columns when column-major) of every buffer
                        are padded to a multiple of this */
    int ld_pad;      /* >= 0: every leading dimension is its line length plus this */
    int offset;      /* each matrix starts this many elements into its buffer */
    int batch;       /* problems, each operand's copies back to back (stride: one copy's
                        padded extent) */
    bool progress;   /* a line on stderr per algorithm */
    /* CLGEMM_F16/BF16: A and B are rounded to that format on the host, the reference is made
     * from the rounded values, algorithms with a 16-bit kernel get 16-bit copies (converted
     * once, outside the timing), the others the rounded values as fp32. */
    clgemm_dtype dtype;
    /* Before each timed run, write a scratch buffer larger than the L2 (outside the timed
     * events), so that the run reads its operands from memory: what a weight that a model
     * reads once per token costs (--cold-l2). */
    bool cold_l2;
    /* C's type and the fused epilogue (--out, --epilogue): every row but CLBlast's computes
     * the whole operation, on a C buffer of that type and a bias vector of N values of it
     * (random, rounded to it, NaN around it); CLBlast's row runs the plain fp32 GEMM of the
     * same shapes on a float C and is checked against the plain product. */
    clgemm_dtype c_type;
    clgemm_epilogue epilogue;
} run_request;

/* Defaults that the CLI and the tests start from. */
run_request run_request_defaults(void);

typedef struct run_result {
    gemm_shape shape;
    clgemm_dtype dtype; /* of A and B, as requested */
    clgemm_dtype c_type;
    clgemm_epilogue epilogue;
    clgemm_layout layout;
    clgemm_op op_a, op_b;
    int ld_pad; /* < 0: the default padding */
    int batch;
    bool cold_l2;
    char check_method[64];
    run_row *rows;
    size_t nrows;
} run_result;

/* Input errors that must stop a run before anything is allocated (a buffer, all of its batch
 * included, beyond the device's single-allocation limit or beyond 32-bit indexing). */
int run_validate(const clgemm_device_desc *dev, const run_request *req, errbuf *e);

typedef struct session session;
/* On the index-th device of clgemm_devices(). */
session *session_open(size_t device_index, errbuf *e);
/* -1 with e set when the run as a whole could not happen (allocation, transfer); failures of
 * single algorithms are reported in their rows instead. */
int session_run(session *s, const run_request *req, run_result *out, errbuf *e);
void session_close(session *s);
void run_result_free(run_result *r);

/* True when every row is OK, UNCHECKED or UNSUPPORTED. */
bool run_result_passed(const run_result *r);

#endif
