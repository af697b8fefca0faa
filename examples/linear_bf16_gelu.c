/* A linear layer as a framework runs it, through libclgemm's general call: Y = GELU(X W^T + b)
 * with X (M x K), the weight W stored as PyTorch keeps it (N x K, read transposed), the bias b
 * (N), and Y (M x N), all in bf16; the bias and GELU are fused into the GEMM's store.  Checked
 * against a CPU reference with the bound docs/precision.md proves.  Built against the
 * installed library through pkg-config:
 *
 *   cc linear_bf16_gelu.c $(pkg-config --cflags --libs clgemm) -lm -o linear_bf16_gelu
 *   ./linear_bf16_gelu [DEVICE-SPEC] [M N K]     (exit 0: verified, 1: wrong or failed)
 *
 * 16-bit data runs on matrix units ("tensor_core"); on a device without them set
 * CLGEMM_EMULATE_MATRIX=1 to run their exact emulation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <clgemm.h>

static cl_mem upload(clgemm_context *ctx, const cl_ushort *host, size_t count)
{
    cl_int err;
    return clCreateBuffer(clgemm_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                          count * sizeof *host, (void *)host, &err);
}

/* Random bf16 values in [-1, 1), and their float values (exact). */
static void fill(cl_ushort *bits, float *vals, size_t count, unsigned seed)
{
    for (size_t i = 0; i < count; i++) {
        seed = seed * 1664525u + 1013904223u;
        bits[i] = clgemm_float_to_16bit((float)(seed >> 8) / 8388608.0f - 1.0f, CLGEMM_BF16);
        vals[i] = clgemm_16bit_to_float(bits[i], CLGEMM_BF16);
    }
}

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : NULL;
    const size_t M = argc > 4 ? strtoul(argv[2], NULL, 10) : 96;
    const size_t N = argc > 4 ? strtoul(argv[3], NULL, 10) : 80;
    const size_t K = argc > 4 ? strtoul(argv[4], NULL, 10) : 72;
    if (!M || !N || !K || M > 4096 || N > 4096 || K > 4096) {
        fprintf(stderr, "linear_bf16_gelu: sizes must be 1..4096\n");
        return 2;
    }
    clgemm_context *ctx;
    if (clgemm_open(spec, &ctx) != CLGEMM_SUCCESS) {
        fprintf(stderr, "linear_bf16_gelu: %s\n", clgemm_last_error());
        return 1;
    }
    cl_ushort *x = malloc(M * K * 2), *w = malloc(N * K * 2), *b = malloc(N * 2),
              *y = malloc(M * N * 2);
    float *xf = malloc(M * K * 4), *wf = malloc(N * K * 4), *bf = malloc(N * 4);
    if (!x || !w || !b || !y || !xf || !wf || !bf)
        return 1;
    fill(x, xf, M * K, 1);
    fill(w, wf, N * K, 2);
    fill(b, bf, N, 3);
    cl_mem dX = upload(ctx, x, M * K), dW = upload(ctx, w, N * K), dB = upload(ctx, b, N);
    cl_mem dY = upload(ctx, y, M * N); /* contents unused: beta is 0 */

    /* The library call: every field not set is zero, its plain default. */
    clgemm_gemm_desc d = { 0 };
    d.M = M, d.N = N, d.K = K, d.alpha = 1.0f;
    d.ab_type = CLGEMM_BF16, d.c_type = CLGEMM_BF16;
    d.A = dX, d.ld_a = K;                          /* X: M x K, row-major */
    d.B = dW, d.ld_b = K, d.op_b = CLGEMM_OP_T;    /* W: N x K, used as W^T */
    d.C = dY, d.ld_c = N;                          /* Y: M x N */
    d.epilogue = CLGEMM_EPILOGUE_BIAS_GELU, d.bias = dB;
    char runs[128] = "";
    clgemm_status st = clgemm_resolve_gemm(ctx, &d, runs, sizeof runs);
    if (st == CLGEMM_SUCCESS)
        st = clgemm_gemm(ctx, &d, NULL, NULL, NULL);
    if (st != CLGEMM_SUCCESS || clEnqueueReadBuffer(clgemm_cl_queue(ctx), dY, CL_TRUE, 0,
                                                    M * N * 2, y, 0, NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "linear_bf16_gelu: %s\n", clgemm_last_error());
        return 1;
    }

    /* The bound: the matrix units' accumulation of exact bf16 products (2^-20 + twice fp32's
     * 2^-24 max(4, 2 sqrt(K)), relative to sum |x w|), widened by GELU's Lipschitz constant
     * 1.13, the bias addition (2^-23) and GELU's evaluation (2^-20, relative to |x w^T + b|'s
     * scale), plus Y's rounding to bf16, 2^-8 of |y|. */
    const double acc = 0x1.0p-20 + 2.0 * 0x1.0p-24 * fmax(4.0, 2.0 * sqrt((double)K));
    const double tol = 1.13 * (acc + 0x1.0p-23) + 0x1.0p-20;
    double worst = 0.0;
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++) {
            double sum = bf[j], mag = fabs(bf[j]);
            for (size_t k = 0; k < K; k++) {
                sum += (double)xf[i * K + k] * wf[j * K + k];
                mag += fabs((double)xf[i * K + k] * wf[j * K + k]);
            }
            const double ref = 0.5 * sum * (1.0 + tanh(0.79788456080286536 *
                                                        (sum + 0.044715 * sum * sum * sum)));
            const double got = clgemm_16bit_to_float(y[i * N + j], CLGEMM_BF16);
            const double err = fmax(0.0, fabs(got - ref) - 0x1.0p-8 * fabs(got)) / mag;
            if (!(err <= worst)) /* NaN too */
                worst = err;
        }
    const int ok = worst <= tol;
    printf("%s: Y = GELU(X W^T + b), bf16, %zu x %zu x %zu on %s, ran %s: error %.3g "
           "(bound %.3g)\n", ok ? "ok" : "FAIL", M, N, K, clgemm_device(ctx)->name, runs, worst,
           tol);
    clReleaseMemObject(dX), clReleaseMemObject(dW), clReleaseMemObject(dB);
    clReleaseMemObject(dY);
    free(x), free(w), free(b), free(y), free(xf), free(wf), free(bf);
    clgemm_close(ctx);
    return ok ? 0 : 1;
}
