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
    bool odd; /* leading dimensions one past the row: the layout pre-pass packs them */
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
        if (j->odd)
            lda = K + 1, ldb = ldc = N + 1;
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

/* One refused call: the status wanted and words the message must hold. */
static int expect_refusal(const char *what, clgemm_status st, clgemm_status want,
                          const char *word1, const char *word2)
{
    const char *msg = clgemm_last_error();
    bool ok = st == want && strstr(msg, word1) && (!word2 || strstr(msg, word2));
    printf("%s %s -> %s (%s)\n", ok ? "ok  " : "FAIL", what, clgemm_status_string(st), msg);
    return !ok;
}

/* The refusals of the "every claim holds" issue: each names the function called and the
 * field at fault.  m: 64 floats; mc: another 64. */
static int bad_calls(clgemm_context *ctx, cl_context cl, cl_mem m, cl_mem mc)
{
    int f = 0;
    clgemm_status st = clgemm_open(NULL, NULL);
    f += expect_refusal("clgemm_open(NULL, NULL)", st, CLGEMM_ERROR_INVALID_ARGUMENT,
                        "clgemm_open:", NULL);
    f += strstr(clgemm_last_error(), "clgemm_open_device") != NULL;
    /* unknown or mis-cased parameter keys are refused, never ignored */
    st = clgemm_sgemm(ctx, "block_tiled:bm=64", 8, 8, 8, 1.0f, m, 0, 8, m, 0, 8, 0.0f, mc, 0, 8,
                      NULL, NULL);
    f += expect_refusal("block_tiled:bm=64", st, CLGEMM_ERROR_INVALID_ARGUMENT, "'bm'", "BM");
    st = clgemm_prepare(ctx, "tiled:FOO=3", NULL);
    f += expect_refusal("tiled:FOO=3", st, CLGEMM_ERROR_INVALID_ARGUMENT, "'FOO'",
                        "clgemm_prepare");
    /* C sharing bytes with A or B, also through a sub-buffer */
    st = clgemm_sgemm(ctx, "naive", 4, 4, 4, 1.0f, m, 0, 4, mc, 0, 4, 0.0f, m, 12, 4, NULL, NULL);
    f += expect_refusal("C overlapping A", st, CLGEMM_ERROR_INVALID_ARGUMENT, "C overlaps A",
                        "clgemm_sgemm");
    cl_buffer_region region = { 32 * sizeof(float), 32 * sizeof(float) };
    cl_int err;
    cl_mem sub = clCreateSubBuffer(mc, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region,
                                   &err);
    if (sub) {
        st = clgemm_sgemm(ctx, "naive", 4, 4, 4, 1.0f, m, 0, 4, mc, 24, 4, 0.0f, sub, 0, 4, NULL,
                          NULL);
        f += expect_refusal("C (a sub-buffer) overlapping B", st, CLGEMM_ERROR_INVALID_ARGUMENT,
                            "C overlaps B", NULL);
        /* the other half of the parent does not overlap: that runs */
        st = clgemm_sgemm(ctx, "naive", 4, 4, 4, 1.0f, m, 0, 4, mc, 0, 4, 0.0f, sub, 0, 4, NULL,
                          NULL);
        f += st != CLGEMM_SUCCESS;
        printf("%s C in a sub-buffer beside B -> %s\n", st ? "FAIL" : "ok  ",
               clgemm_status_string(st));
        clReleaseMemObject(sub);
    }
    /* resolve: an error, not a cut name, when the buffer is too small; and what really runs
     * for unaligned operands: the same kernel as for aligned ones (the vectorized steps need
     * multiples of 4 and get them from the layout pre-pass) */
    char name[256], aligned[256];
    st = clgemm_resolve(ctx, "block_tiled:BM=64,BN=64", 64, 64, 64, name, 8);
    f += expect_refusal("clgemm_resolve into 8 bytes", st, CLGEMM_ERROR_INVALID_ARGUMENT,
                        "too small", "clgemm_resolve");
    st = clgemm_resolve_operands(ctx, "block_tiled_vectorized", CLGEMM_F32, 16, 16, 16, 0, 17, 0,
                                 16, 0, 16, name, sizeof name);
    bool same = st == CLGEMM_SUCCESS && strcspn(name, ":") == strlen("block_tiled_vectorized") &&
                strncmp(name, "block_tiled_vectorized", strcspn(name, ":")) == 0;
    printf("%s block_tiled_vectorized at lda 17 resolves to %s\n", same ? "ok  " : "FAIL",
           st == CLGEMM_SUCCESS ? name : clgemm_last_error());
    f += !same;
    st = clgemm_resolve_operands(ctx, NULL, CLGEMM_F32, 16, 16, 16, 1, 17, 0, 16, 0, 16, name,
                                 sizeof name);
    same = st == CLGEMM_SUCCESS &&
           clgemm_resolve(ctx, NULL, 16, 16, 16, aligned, sizeof aligned) == CLGEMM_SUCCESS &&
           strcmp(name, aligned) == 0;
    printf("%s auto at lda 17 and offset 1 resolves to %s, as at aligned operands\n",
           same ? "ok  " : "FAIL", st == CLGEMM_SUCCESS ? name : clgemm_last_error());
    f += !same;
    cl_mem big = clCreateBuffer(cl, CL_MEM_READ_WRITE, 16 * 17 * 4 + 8, NULL, &err);
    cl_mem bb = clCreateBuffer(cl, CL_MEM_READ_WRITE, 16 * 16 * 4, NULL, &err);
    cl_mem bc = clCreateBuffer(cl, CL_MEM_READ_WRITE, 16 * 16 * 4, NULL, &err);
    st = clgemm_sgemm(ctx, NULL, 16, 16, 16, 1.0f, big, 1, 17, bb, 0, 16, 0.0f, bc, 0, 16, NULL,
                      NULL);
    printf("%s auto runs at lda 17 -> %s\n", st ? "FAIL" : "ok  ", clgemm_status_string(st));
    f += st != CLGEMM_SUCCESS;
    /* the descriptor form names what the call runs, and checks the descriptor as the call does */
    clgemm_gemm_desc d = { .algorithm = "block_tiled:BM=64,BN=64", .M = 16, .N = 16, .K = 16,
                           .alpha = 1.0f, .A = big, .ld_a = 17, .off_a = 1, .B = bb, .ld_b = 16,
                           .C = bc, .ld_c = 16 };
    st = clgemm_resolve_gemm(ctx, &d, name, sizeof name);
    bool named = st == CLGEMM_SUCCESS && strncmp(name, "block_tiled:", 12) == 0 &&
                 strstr(name, "BM=64");
    printf("%s clgemm_resolve_gemm names %s\n", named ? "ok  " : "FAIL",
           st == CLGEMM_SUCCESS ? name : clgemm_last_error());
    f += !named;
    d.C = NULL;
    st = clgemm_resolve_gemm(ctx, &d, name, sizeof name);
    f += expect_refusal("clgemm_resolve_gemm with no C", st, CLGEMM_ERROR_INVALID_ARGUMENT,
                        "clgemm_resolve_gemm", "C");
    clReleaseMemObject(big);
    clReleaseMemObject(bb);
    clReleaseMemObject(bc);
    return f;
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
        { ctx, q1, { "block_tiled_vectorized", "tiled", NULL }, 1, 0, "", false },
        { ctx, q2, { "block_tiled_vectorized", NULL, "tiled" }, 2, 0, "", false },
    };
    failures += run_pair(jobs, "GEMMs on its own queue");

    /* Misaligned operands: both threads pack through the context's layout kernels at once. */
    struct job odd[2] = {
        { ctx, q1, { "block_tiled_vectorized", "warp_tiled", NULL }, 6, 0, "", true },
        { ctx, q2, { "warp_tiled", NULL, "block_tiled_vectorized" }, 7, 0, "", true },
    };
    failures += run_pair(odd, "GEMMs at odd leading dimensions (layout pre-pass)");

    /* The packed kernels keep scratch buffers in the shared plan, reused only on the queue that
     * last used them: two threads alternating on their own queues make every call switch
     * queues.  Through the emulation of the matrix instructions where there is no Hopper GPU
     * (integers of at most 4: tf32 holds them exactly, so the results are exact too). */
    setenv("CLGEMM_EMULATE_MATRIX", "1", 1);
    struct job packed[2] = {
        { ctx, q1, { "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2",
                     "wgmma_tma:SPLIT=1,BM=64,BN=64,WGN=64,BK=8,STAGES=2",
                     "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2" }, 4, 0, "", false },
        { ctx, q2, { "wgmma_tma:SPLIT=1,BM=64,BN=64,WGN=64,BK=8,STAGES=2",
                     "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2",
                     "wgmma_tma:SPLIT=1,BM=64,BN=64,WGN=64,BK=8,STAGES=2" },
          5, 0, "", false },
    };
    failures += run_pair(packed, "packed GEMMs (scratch buffers shared by the plan)");

    /* A caller's queue wrapped into a second context on the same device. */
    clgemm_context *wrapped;
    if (clgemm_wrap(q1, &wrapped) != CLGEMM_SUCCESS) {
        printf("FAIL clgemm_wrap: %s\n", clgemm_last_error());
        failures++;
    } else {
        struct job j = { wrapped, q1, { "naive", "block_tiled", NULL }, 3, 0, "", false };
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
    cl_mem mc = clCreateBuffer(cl, CL_MEM_READ_WRITE, 64 * 4, NULL, &err);
    st = clgemm_sgemm(ctx, "naive", 8, 8, 8, 1.0f, m, 0, 8, m, 0, 8, 0.0f, mc, 0, 8, foreign,
                      NULL);
    bool named_call = st == CLGEMM_ERROR_OPENCL &&
                      strstr(clgemm_last_error(), "clEnqueueNDRangeKernel") &&
                      strstr(clgemm_last_error(), "CL_INVALID");
    printf("%s enqueue on a foreign queue -> %s (%s)\n", named_call ? "ok  " : "FAIL",
           clgemm_status_string(st), clgemm_last_error());
    failures += !named_call;
    failures += bad_calls(ctx, cl, m, mc);
    clReleaseMemObject(m);
    clReleaseMemObject(mc);
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
