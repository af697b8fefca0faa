/* Runs one libclgemm algorithm on matrices read from raw float32 files and writes C to a raw
 * file, so that another program (bench/tf32_error.py: cuBLAS through PyTorch) can compare
 * both on exactly the same inputs.  The files are row-major and tight (A is M x K, B is K x N,
 * C is M x N); on the device every row is padded to a multiple of 8 values, which every
 * kernel accepts, so that tiny K or N (3 x 4097 x 5) runs the same kernel as large ones.
 *
 *   gemm_files DEVICE ALGORITHM M N K A.f32 B.f32 C.f32
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"

static float *read_floats(const char *path, size_t n)
{
    float *p = malloc(n * sizeof *p);
    FILE *f = fopen(path, "rb");
    if (!p || !f || fread(p, sizeof *p, n, f) != n) {
        fprintf(stderr, "gemm_files: cannot read %zu floats from %s\n", n, path);
        exit(1);
    }
    fclose(f);
    return p;
}

int main(int argc, char **argv)
{
    if (argc != 9) {
        fprintf(stderr, "usage: gemm_files DEVICE ALGORITHM M N K A.f32 B.f32 C.f32\n");
        return 2;
    }
    const size_t M = strtoul(argv[3], NULL, 10), N = strtoul(argv[4], NULL, 10),
                 K = strtoul(argv[5], NULL, 10);
    float *a = read_floats(argv[6], M * K), *b = read_floats(argv[7], K * N);
    float *c = calloc(M * N, sizeof *c);
    const size_t lda = (K + 7) / 8 * 8, ldb = (N + 7) / 8 * 8, ldc = ldb;
    float *pa = calloc(M * lda, sizeof *pa), *pb = calloc(K * ldb, sizeof *pb);
    float *pc = calloc(M * ldc, sizeof *pc);
    if (!pa || !pb || !pc)
        return 1;
    for (size_t r = 0; r < M; r++)
        memcpy(pa + r * lda, a + r * K, K * sizeof *a);
    for (size_t r = 0; r < K; r++)
        memcpy(pb + r * ldb, b + r * N, N * sizeof *b);
    clgemm_context *ctx;
    if (!c || clgemm_open(argv[1], &ctx) != CLGEMM_SUCCESS) {
        fprintf(stderr, "gemm_files: %s\n", clgemm_last_error());
        return 1;
    }
    cl_context cl = clgemm_cl_context(ctx);
    cl_command_queue q = clgemm_cl_queue(ctx);
    cl_int err;
    cl_mem dA = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, M * lda * 4, pa, &err);
    cl_mem dB = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, K * ldb * 4, pb, &err);
    cl_mem dC = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, M * ldc * 4, pc, &err);
    clgemm_build_info info;
    if (!dA || !dB || !dC || clgemm_prepare(ctx, argv[2], &info) != CLGEMM_SUCCESS ||
        clgemm_sgemm(ctx, argv[2], M, N, K, 1.0f, dA, 0, lda, dB, 0, ldb, 0.0f, dC, 0, ldc,
                     NULL, NULL) != CLGEMM_SUCCESS ||
        clEnqueueReadBuffer(q, dC, CL_TRUE, 0, M * ldc * 4, pc, 0, NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "gemm_files: %s\n", clgemm_last_error());
        return 1;
    }
    printf("%s ran %s (%s, %s, %s)\n", argv[2], info.runs, info.backend, info.precision,
           info.params);
    for (size_t r = 0; r < M; r++)
        memcpy(c + r * N, pc + r * ldc, N * sizeof *c);
    FILE *f = fopen(argv[8], "wb");
    if (!f || fwrite(c, sizeof *c, M * N, f) != M * N) {
        fprintf(stderr, "gemm_files: cannot write %s\n", argv[8]);
        return 1;
    }
    fclose(f);
    clReleaseMemObject(dA);
    clReleaseMemObject(dB);
    clReleaseMemObject(dC);
    clgemm_close(ctx);
    free(a);
    free(b);
    free(c);
    free(pa);
    free(pb);
    free(pc);
    return 0;
}
