/* What the files of test_layouts share: the description of one call (spec), the one way a
 * call is run and checked (test_layouts_call.c), the context the calls run in and the counts
 * the sweeps report (test_layouts.c has the cases, main and the file comment that says how a
 * call is checked; test_layouts_invalid.c the refusals). */
#ifndef CLGEMM_TEST_LAYOUTS_H
#define CLGEMM_TEST_LAYOUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "clgemm.h"

/* test_layouts_invalid.c: every invalid field refused by name; returns the failures. */
int test_layouts_invalid(clgemm_context *ctx);

/* The context every call runs in and its OpenCL context, set by main (test_layouts.c). */
extern clgemm_context *ctx;
extern cl_context cl;
/* Calls run and calls that failed (run() counts both; main adds the refusals' failures). */
extern int runs, failures;

#define ALIGNED 16

typedef struct spec {
    clgemm_layout layout;
    clgemm_op op_a, op_b;
    size_t M, N, K;
    const char *algorithm;
    bool padded;          /* ld = stored line + odd pad, odd offsets; else tight, offset 0 */
    size_t batch;         /* A shared (stride 0) when > 1, B and C at odd strides */
    bool strided_a;       /* A at its own stride too */
    int aligned;          /* 0, or offsets, lds (lines + this) and strides multiples of this
                             many elements, NaN gaps (ALIGNED: 16, 32 bytes of 16-bit values) */
    clgemm_dtype dtype;
    float alpha, beta;
    bool wrapper;         /* through clgemm_sgemm_events / clgemm_gemm_16bit */
    bool coarse;          /* values in quarters, -1..1: exact in tf32, every sum exact */
    int commands;         /* 1: the GEMM alone (first == last); 2: a pre-pass too; 0: either */
    int packs;            /* 1 + CLGEMM_PACKS_* the layout pre-pass must copy; 0: either */
    cl_command_queue queue;
} spec;

/* Runs one call and checks it; returns 0 when it holds (test_layouts_call.c). */
int run(const spec *s);

#endif
