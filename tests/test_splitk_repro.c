/* Split-K sums in another order than one pass over K, but in a fixed one: the same call must
 * give the same C bit for bit at every run (no atomics, no order left to the scheduler).  Each
 * form below runs the same problem five times into fresh C buffers (NaN first) and the
 * results must be equal byte for byte; a split that leaves a shorter last slice and B stored
 * both ways are among them.  Device: $CLGEMM_TEST_DEVICE, else PoCL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"

#define RUNS 5

static int run_form(clgemm_context *ctx, const char *form, clgemm_op op_b, clgemm_dtype t)
{
    const size_t M = 17, N = 45, K = 1000; /* 1000 = 3 x 256 + 232 with SPLITK=4; M > BM */
    const size_t elem = t == CLGEMM_F32 ? 4 : 2;
    cl_context cl = clgemm_cl_context(ctx);
    cl_command_queue q = clgemm_cl_queue(ctx);
    unsigned char *a = malloc(M * K * elem), *b = malloc(K * N * elem);
    float *c[RUNS];
    srand(7);
    for (size_t i = 0; i < M * K + K * N; i++) {
        const float v = (float)rand() / RAND_MAX * 2.0f - 1.0f;
        unsigned char *dst = i < M * K ? a + i * elem : b + (i - M * K) * elem;
        if (t == CLGEMM_F32)
            memcpy(dst, &v, 4);
        else {
            const cl_ushort h = clgemm_float_to_16bit(v, t);
            memcpy(dst, &h, 2);
        }
    }
    cl_int err;
    cl_mem A = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, M * K * elem, a, &err);
    cl_mem B = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, K * N * elem, b, &err);
    int bad = 0;
    for (int r = 0; r < RUNS; r++) {
        c[r] = malloc(M * N * sizeof(float));
        for (size_t i = 0; i < M * N; i++)
            c[r][i] = 0.0f / 0.0f;
        cl_mem C = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, M * N * 4, c[r],
                                  &err);
        const clgemm_gemm_desc d = { .algorithm = form, .op_b = op_b, .M = M, .N = N, .K = K,
                                     .alpha = 1.0f, .beta = 0.0f, .ab_type = t,
                                     .A = A, .ld_a = K, .B = B,
                                     .ld_b = op_b == CLGEMM_OP_T ? K : N, .C = C, .ld_c = N };
        if (!C || clgemm_gemm(ctx, &d, NULL, NULL, NULL) != CLGEMM_SUCCESS ||
            clEnqueueReadBuffer(q, C, CL_TRUE, 0, M * N * 4, c[r], 0, NULL, NULL) != CL_SUCCESS) {
            printf("FAIL %s: %s\n", form, clgemm_last_error());
            bad = 1;
        } else if (r > 0 && memcmp(c[r], c[0], M * N * 4) != 0) {
            printf("FAIL %s %s %s: run %d differs from run 0\n", form,
                   op_b == CLGEMM_OP_T ? "NT" : "NN", clgemm_dtype_name(t), r);
            bad = 1;
        }
        if (C)
            clReleaseMemObject(C);
    }
    if (!bad)
        printf("ok   %-40s %s %-4s %d runs, equal bit for bit\n", form,
               op_b == CLGEMM_OP_T ? "NT" : "NN", clgemm_dtype_name(t), RUNS);
    for (int r = 0; r < RUNS; r++)
        free(c[r]);
    free(a);
    free(b);
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    return bad;
}

int main(void)
{
    const char *spec = getenv("CLGEMM_TEST_DEVICE");
    clgemm_context *ctx;
    if (clgemm_open(spec && *spec ? spec : "pocl", &ctx) != CLGEMM_SUCCESS) {
        fprintf(stderr, "test_splitk_repro: %s\n", clgemm_last_error());
        return 1;
    }
    static const char *const forms[] = { "skinny:BM=16,RN=4,SPLITK=4", "warp_tiled:SPLITK=4" };
    static const clgemm_dtype types[] = { CLGEMM_F32, CLGEMM_BF16 };
    int failed = 0;
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
        for (int nt = 0; nt <= 1; nt++)
            for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
                if (clgemm_algorithm_has_dtype(forms[f], types[t]))
                    failed += run_form(ctx, forms[f], nt ? CLGEMM_OP_T : CLGEMM_OP_N, types[t]);
    clgemm_close(ctx);
    printf("%s\n", failed ? "FAILED" : "ok");
    return failed ? 1 : 0;
}
