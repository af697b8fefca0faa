/* Thread safety as clgemm.h states it: two threads run GEMMs on their own queues through one
 * shared context (built kernels shared, kernel arguments set under a lock), and one context
 * wraps a caller's queue.  Uses the public API only; results are checked exactly (small
 * integers make every fp32 partial sum exact).  Device from $CLGEMM_TEST_DEVICE, else pocl. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"

#define ROUNDS 12

struct job {
    clgemm_context *ctx;
    cl_command_queue queue;
    const char *algos[3];
    int seed;
    int failures;
    char why[512];
};

static void fill(float *x, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((int)((i * 2654435761u + (unsigned)seed) % 9) - 4);
}

static void *worker(void *arg)
{
    struct job *j = arg;
    cl_context cl = clgemm_cl_context(j->ctx);
    for (int r = 0; r < ROUNDS; r++) {
        /* Sizes differ per thread and round, so interleaved argument setting would show. */
        size_t M = 20 + (size_t)(j->seed * 7 + r * 5) % 50, N = 16 + (size_t)(r * 3) % 40,
               K = 8 + (size_t)(j->seed + r) % 30;
        size_t lda = (K + 3) / 4 * 4, ldb = (N + 3) / 4 * 4, ldc = ldb;
        float *a = calloc(M * lda, 4), *b = calloc(K * ldb, 4), *c = calloc(M * ldc, 4);
        fill(a, M * lda, j->seed + r);
        fill(b, K * ldb, j->seed * 3 + r);
        cl_int err;
        cl_mem A = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, M * lda * 4, a,
                                  &err);
        cl_mem B = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, K * ldb * 4, b,
                                  &err);
        cl_mem C = clCreateBuffer(cl, CL_MEM_READ_WRITE, M * ldc * 4, NULL, &err);
        const char *algo = j->algos[r % 3];
        clgemm_status st = clgemm_sgemm(j->ctx, algo, M, N, K, 1.0f, A, 0, lda, B, 0, ldb,
                                        0.0f, C, 0, ldc, j->queue, NULL);
        if (st != CLGEMM_SUCCESS) {
            snprintf(j->why, sizeof j->why, "%s: %s", algo ? algo : "(auto)", clgemm_last_error());
            j->failures++;
        } else {
            clEnqueueReadBuffer(j->queue, C, CL_TRUE, 0, M * ldc * 4, c, 0, NULL, NULL);
            for (size_t i = 0; i < M; i++)
                for (size_t n = 0; n < N; n++) {
                    float ref = 0.0f;
                    for (size_t k = 0; k < K; k++)
                        ref += a[i * lda + k] * b[k * ldb + n];
                    if (c[i * ldc + n] != ref) {
                        snprintf(j->why, sizeof j->why, "%s %zux%zux%zu: C(%zu,%zu) = %g, not %g",
                                 algo ? algo : "(auto)", M, N, K, i, n, c[i * ldc + n], ref);
                        j->failures++;
                        i = M;
                        break;
                    }
                }
        }
        clReleaseMemObject(A);
        clReleaseMemObject(B);
        clReleaseMemObject(C);
        free(a);
        free(b);
        free(c);
    }
    return NULL;
}

/* Runs two jobs in two threads at once; prints a line per thread, returns the failures. */
static int run_pair(struct job jobs[2], const char *what)
{
    pthread_t t[2];
    int failures = 0;
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, &jobs[i]);
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        printf("%s thread %d: %d %s, %d wrong%s%s\n", jobs[i].failures ? "FAIL" : "ok  ", i,
               ROUNDS, what, jobs[i].failures, jobs[i].failures ? ": " : "", jobs[i].why);
        failures += jobs[i].failures;
    }
    return failures;
}

int main(void)
{
    const char *spec = getenv("CLGEMM_TEST_DEVICE");
    clgemm_context *ctx;
    if (clgemm_open(spec && *spec ? spec : "pocl", &ctx) != CLGEMM_SUCCESS) {
        fprintf(stderr, "test_threads: %s\n", clgemm_last_error());
        return 1;
    }
    cl_context cl = clgemm_cl_context(ctx);
    cl_device_id dev = clgemm_device(ctx)->id;
    cl_int err;
    cl_command_queue q1 = clCreateCommandQueue(cl, dev, 0, &err);
    cl_command_queue q2 = clCreateCommandQueue(cl, dev, 0, &err);
    int failures = 0;

    /* Both threads use the same algorithms, so they share the same cl_kernel objects. */
    struct job jobs[2] = {
        { ctx, q1, { "block_tiled_vectorized", "tiled", NULL }, 1, 0, "" },
        { ctx, q2, { "block_tiled_vectorized", NULL, "tiled" }, 2, 0, "" },
    };
    failures += run_pair(jobs, "GEMMs on its own queue");

    /* The packed kernels keep scratch buffers in the shared plan, reused only on the queue that
     * last used them: two threads alternating on their own queues make every call switch
     * queues.  Through the emulation of the matrix instructions where there is no Hopper GPU
     * (integers of at most 4: tf32 holds them exactly, so the results are exact too). */
    setenv("CLGEMM_EMULATE_MATRIX", "1", 1);
    struct job packed[2] = {
        { ctx, q1, { "wgmma_tma_packed:BM=64,BN=64,WGN=64,BK=16,STAGES=2,THREADS=160",
                     "wgmma_tma_packed:SPLIT=1,BM=64,BN=64,WGN=64,BK=8,STAGES=2,THREADS=160",
                     "wgmma_tma_packed:BM=64,BN=64,WGN=64,BK=16,STAGES=2,THREADS=160" }, 4, 0, "" },
        { ctx, q2, { "wgmma_tma_packed:SPLIT=1,BM=64,BN=64,WGN=64,BK=8,STAGES=2,THREADS=160",
                     "wgmma_tma_packed:BM=64,BN=64,WGN=64,BK=16,STAGES=2,THREADS=160",
                     "wgmma_tma_packed:SPLIT=1,BM=64,BN=64,WGN=64,BK=8,STAGES=2,THREADS=160" },
          5, 0, "" },
    };
    failures += run_pair(packed, "packed GEMMs (scratch buffers shared by the plan)");

    /* A caller's queue wrapped into a second context on the same device. */
    clgemm_context *wrapped;
    if (clgemm_wrap(q1, &wrapped) != CLGEMM_SUCCESS) {
        printf("FAIL clgemm_wrap: %s\n", clgemm_last_error());
        failures++;
    } else {
        struct job j = { wrapped, q1, { "naive", "block_tiled", NULL }, 3, 0, "" };
        worker(&j);
        printf("%s wrapped queue: %d GEMMs, %d wrong%s%s\n", j.failures ? "FAIL" : "ok  ",
               ROUNDS, j.failures, j.failures ? ": " : "", j.why);
        failures += j.failures;
        clgemm_close(wrapped);
    }

    /* Errors are statuses with words, never crashes. */
    clgemm_status st = clgemm_sgemm(ctx, "nosuch", 4, 4, 4, 1.0f, NULL, 0, 4, NULL, 0, 4, 0.0f,
                                    NULL, 0, 4, NULL, NULL);
    bool named = st != CLGEMM_SUCCESS && strlen(clgemm_last_error()) > 0;
    printf("%s bad call -> %s (%s)\n", named ? "ok  " : "FAIL", clgemm_status_string(st),
           clgemm_last_error());
    failures += !named;
    cl_mem small = clCreateBuffer(cl, CL_MEM_READ_WRITE, 16, NULL, &err);
    st = clgemm_sgemm(ctx, "naive", 8, 8, 8, 1.0f, small, 0, 8, small, 0, 8, 0.0f, small, 0, 8,
                      NULL, NULL);
    bool refused = st == CLGEMM_ERROR_INVALID_ARGUMENT && strstr(clgemm_last_error(), "needs");
    printf("%s buffer too small -> %s (%s)\n", refused ? "ok  " : "FAIL",
           clgemm_status_string(st), clgemm_last_error());
    failures += !refused;
    clReleaseMemObject(small);

    /* An enqueue error names the call and the OpenCL error: a queue of another context. */
    cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue foreign = other ? clCreateCommandQueue(other, dev, 0, &err) : NULL;
    cl_mem m = clCreateBuffer(cl, CL_MEM_READ_WRITE, 64 * 4, NULL, &err);
    st = clgemm_sgemm(ctx, "naive", 8, 8, 8, 1.0f, m, 0, 8, m, 0, 8, 0.0f, m, 0, 8, foreign,
                      NULL);
    bool named_call = st == CLGEMM_ERROR_OPENCL &&
                      strstr(clgemm_last_error(), "clEnqueueNDRangeKernel") &&
                      strstr(clgemm_last_error(), "CL_INVALID");
    printf("%s enqueue on a foreign queue -> %s (%s)\n", named_call ? "ok  " : "FAIL",
           clgemm_status_string(st), clgemm_last_error());
    failures += !named_call;
    clReleaseMemObject(m);
    if (foreign)
        clReleaseCommandQueue(foreign);
    if (other)
        clReleaseContext(other);

    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clgemm_close(ctx);
    printf("%d failed\n", failures);
    return failures ? 1 : 0;
}
