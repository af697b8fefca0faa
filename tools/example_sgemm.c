/* A program that uses libclgemm as a user would: open a device, put matrices in buffers,
 * multiply, read back.  Built against the installed library through pkg-config:
 *
 *   cc example_sgemm.c $(pkg-config --cflags --libs clgemm) -o example_sgemm
 *   ./example_sgemm [DEVICE-SPEC] [M N K]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <clgemm.h>

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : NULL;
    size_t M = argc > 4 ? strtoul(argv[2], NULL, 10) : 123;
    size_t N = argc > 4 ? strtoul(argv[3], NULL, 10) : 77;
    size_t K = argc > 4 ? strtoul(argv[4], NULL, 10) : 45;
    if (!M || !N || !K) {
        fprintf(stderr, "example_sgemm: sizes must be positive\n");
        return 2;
    }

    clgemm_context *ctx;
    clgemm_status st = clgemm_open(spec, &ctx);
    if (st != CLGEMM_SUCCESS) {
        fprintf(stderr, "example_sgemm: %s: %s\n", clgemm_status_string(st), clgemm_last_error());
        return 1;
    }
    printf("libclgemm %s on %s\n", clgemm_version(), clgemm_device(ctx)->name);

    float *a = malloc(M * K * sizeof *a), *b = malloc(K * N * sizeof *b);
    float *c = malloc(M * N * sizeof *c);
    if (!a || !b || !c)
        return 1;
    for (size_t i = 0; i < M * K; i++)
        a[i] = (float)((i * 7) % 13) - 6.0f;
    for (size_t i = 0; i < K * N; i++)
        b[i] = (float)((i * 5) % 11) - 5.0f;

    cl_context cl = clgemm_cl_context(ctx);
    cl_command_queue q = clgemm_cl_queue(ctx);
    cl_int err;
    cl_mem A = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, M * K * 4, a, &err);
    cl_mem B = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, K * N * 4, b, &err);
    cl_mem C = clCreateBuffer(cl, CL_MEM_READ_WRITE, M * N * 4, NULL, &err);
    if (!A || !B || !C) {
        fprintf(stderr, "example_sgemm: clCreateBuffer failed (%d)\n", err);
        return 1;
    }

    /* algorithm NULL: the fastest one that accepts these operands (here lda = K is odd, so
     * not the float4 kernels). */
    cl_event done;
    st = clgemm_sgemm(ctx, NULL, M, N, K, 1.0f, A, 0, K, B, 0, N, 0.0f, C, 0, N, NULL, &done);
    if (st != CLGEMM_SUCCESS) {
        fprintf(stderr, "example_sgemm: %s: %s\n", clgemm_status_string(st), clgemm_last_error());
        return 1;
    }
    clWaitForEvents(1, &done);
    clReleaseEvent(done);
    clEnqueueReadBuffer(q, C, CL_TRUE, 0, M * N * 4, c, 0, NULL, NULL);

    /* Small integers: every partial sum is exact in fp32, so the check is exact too. */
    size_t wrong = 0;
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++) {
            float ref = 0.0f;
            for (size_t k = 0; k < K; k++)
                ref += a[i * K + k] * b[k * N + j];
            wrong += c[i * N + j] != ref;
        }
    printf("%zux%zux%zu: %zu wrong entries\n", M, N, K, wrong);

    clReleaseMemObject(A);
    clReleaseMemObject(B);
    clReleaseMemObject(C);
    clgemm_close(ctx);
    free(a);
    free(b);
    free(c);
    return wrong ? 1 : 0;
}
