/* The command line: flags to options, with one-line errors for anything malformed. */
#ifndef CLGEMM_CLI_H
#define CLGEMM_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "clerr.h"
#include "clgemm.h"
#include "shape.h"

typedef enum output_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } output_format;

typedef struct cli_options {
#define CLI_MAX_ALGOS 48
    const char *algos[CLI_MAX_ALGOS]; /* names (maybe with ":params"), "all", "list" */
    int nalgos;                       /* 0: all */
    bool size_given;    /* else a default chosen per device */
    gemm_shape shape;
    const char *device; /* NULL: the default device */
    bool list_devices, help, version, check, quiet;
    bool show_unsupported; /* table: rows of algorithms the device cannot run, with why */
    bool baseline;      /* run CLBlast beside the chosen algorithm (for the ratio) */
    int iters;          /* 0: automatic */
    int warmup;
    output_format format;
    uint64_t seed;
    float alpha, beta;
    clgemm_dtype dtype; /* of A and B (--dtype); C's is c_type (--out) */
    clgemm_layout layout;  /* --layout row|col */
    clgemm_op op_a, op_b;  /* --trans NN|NT|TN|TT */
    int ld_pad;            /* --ld-pad P (each leading dimension: its line length + P); -1:
                              lines padded to 32-element multiples */
    int batch;             /* --batch N, >= 1 */
    bool cold_l2;          /* --cold-l2: evict the L2 before each timed run */
    clgemm_dtype c_type;   /* --out f32|f16|bf16 */
    clgemm_epilogue epilogue; /* --epilogue NAME */
} cli_options;

/* Exit status for bad input, as documented in --help. */
#define EXIT_BAD_INPUT 2

/* A whole-string decimal integer in [lo, hi] into *out; a whole-string finite float.  0, or
 * -1 (nothing written). */
int parse_int(const char *text, long lo, long hi, long *out);
int parse_float(const char *text, float *out);

/* "N" or "MxNxK" with every number in 1..2^31-1; anything else is refused. */
int parse_size(const char *text, gemm_shape *out, errbuf *e);

/* --dtype: "f32" (also "fp32"), "f16", "bf16", or "tf32x3", which keeps fp32 data and sets
 * *tf32x3 (the CLI then runs the tensor_core_tf32x3 algorithm).  0, or -1 with e set. */
int parse_dtype(const char *text, clgemm_dtype *out, bool *tf32x3, errbuf *e);

/* --layout: "row" or "col"; --trans: "NN", "NT", "TN" or "TT" (op of A, then of B).  0, or -1
 * with e set. */
int parse_layout(const char *text, clgemm_layout *out, errbuf *e);
int parse_trans(const char *text, clgemm_op *op_a, clgemm_op *op_b, errbuf *e);

/* 0 on success; -1 with e set (one line) on bad input.  Checks the algorithm name against
 * the registry; device specs are checked later, against the devices present.  Uses getopt_long,
 * so it is not thread-safe; it may be called again on another argv. */
int cli_parse(int argc, char **argv, cli_options *o, errbuf *e);

void cli_print_help(const char *prog);

#endif
