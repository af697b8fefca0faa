/* Unit tests of the error metric and its tolerances: a single wrong entry, NaN, honest fp32
 * rounding, every operand layout, and the bounds of each precision. */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "registry.h"
#include "expect.h"

/* The metric must see a single wrong entry, NaN, and the rounding of honest fp32 sums. */
static void test_check(void)
{
    host_matrix A, B, C0, C;
    int M = 37, N = 29, K = 53;
    EXPECT(host_matrix_alloc(&A, M, K, 4) == 0 && host_matrix_alloc(&B, K, N, 4) == 0 &&
           host_matrix_alloc(&C0, M, N, 4) == 0 && host_matrix_alloc(&C, M, N, 4) == 0);
    host_matrix_fill_random(&A, 1);
    host_matrix_fill_random(&B, 2);
    host_matrix_fill_random(&C0, 3);
    EXPECT(isnan(A.data[K])); /* padding is poisoned */
    for (int full = 0; full <= 1; full++) {
        reference ref;
        EXPECT(reference_build(&ref, &A, &B, &C0, 2.0f, 0.5f, full, 9) == 0);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float acc = 0.0f;
                for (int k = 0; k < K; k++)
                    acc += A.data[i * A.ld + k] * B.data[k * B.ld + j];
                C.data[i * C.ld + j] = 2.0f * acc + 0.5f * C0.data[i * C0.ld + j];
            }
        double ok = reference_error(&ref, &C);
        EXPECT(ok < tolerance_f32(K));
        C.data[(M - 1) * C.ld + (N - 1)] += 0.01f; /* a corner: sampled mode must see it */
        EXPECT(reference_error(&ref, &C) > tolerance_f32(K));
        C.data[(M - 1) * C.ld + (N - 1)] = NAN;
        EXPECT(isinf(reference_error(&ref, &C)));
        reference_free(&ref);
    }
    host_matrix other = C;
    EXPECT(host_matrix_alloc(&other, M, N, 4) == 0);
    memcpy(other.data, C.data, host_matrix_bytes(&C));
    C.data[(M - 1) * C.ld + (N - 1)] = 0.0f;
    other.data[(M - 1) * C.ld + (N - 1)] = 0.0f;
    EXPECT(compare_error(&A, &B, &C0, 2.0f, 0.5f, &C, &other) == 0.0);
    other.data[5 * other.ld + 7] += 0.05f;
    EXPECT(compare_error(&A, &B, &C0, 2.0f, 0.5f, &C, &other) > tolerance_f32(K));
    EXPECT(tolerance_f32(1) < tolerance_f32(1 << 20));
    host_matrix_free(&A);
    host_matrix_free(&B);
    host_matrix_free(&C0);
    host_matrix_free(&C);
    host_matrix_free(&other);
}

/* The general call's operands on the host: every layout and transpose, leading dimensions
 * beyond the line, an offset and a batch.  The reference of the same logical product must not
 * depend on how it is stored; a wrong entry in any problem, and a write into any padding, must
 * be seen. */
static void test_check_layouts(void)
{
    enum { M = 7, N = 5, K = 6, BATCH = 3, OFF = 3 };
    /* op(A) and op(B) of each problem, as plain arrays */
    float a[BATCH][M][K], b[BATCH][K][N];
    uint64_t s = 77;
    for (int p = 0; p < BATCH; p++) {
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++)
                a[p][i][k] = (float)((s = s * 6364136223846793005ull + 1) >> 40) / 16777216.0f;
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++)
                b[p][k][j] = (float)((s = s * 6364136223846793005ull + 1) >> 40) / 16777216.0f;
    }
    for (int v = 0; v < 8; v++) {
        const bool col = v & 1, ta = v & 2, tb = v & 4;
        const int pad = v % 3; /* 0, 1, 2: tight and odd leading dimensions */
        matrix_geometry ga = matrix_geometry_of(ta ? K : M, ta ? M : K, col, pad, 1);
        matrix_geometry gb = matrix_geometry_of(tb ? N : K, tb ? K : N, col, pad, 1);
        matrix_geometry gc = matrix_geometry_of(M, N, col, pad, 1);
        EXPECT(ga.ld == (col ? ga.rows : ga.cols) + pad && ga.stride == ga.ld * (col ? ga.cols
                                                                               : ga.rows));
        host_matrix A, B, C0, C, D;
        EXPECT(host_matrix_make(&A, &ga, BATCH, OFF) == 0 &&
               host_matrix_make(&B, &gb, BATCH, OFF) == 0 &&
               host_matrix_make(&C0, &gc, BATCH, OFF) == 0 &&
               host_matrix_make(&C, &gc, BATCH, OFF) == 0 &&
               host_matrix_make(&D, &gc, BATCH, OFF) == 0);
        A.trans = ta;
        B.trans = tb;
        host_matrix_fill_random(&C0, 5);
        EXPECT(isnan(C0.buf[0]) && isnan(C0.buf[OFF - 1]) && !isnan(C0.data[0]));
        size_t nan = 0, total = host_matrix_buffer_bytes(&C0) / sizeof(float);
        for (size_t i = 0; i < total; i++) {
            nan += isnan(C0.buf[i]) != 0;
            EXPECT(!isnan(C0.buf[i]) == host_matrix_inside(&C0, i));
        }
        EXPECT(nan == total - (size_t)BATCH * M * N);
        host_matrix_fill_nan(&A);
        host_matrix_fill_nan(&B);
        /* the stored element behind op(X)(i, j), by hand: T swaps i and j, column-major swaps
         * the roles of row and column in the address */
        for (int p = 0; p < BATCH; p++) {
            for (int i = 0; i < M; i++)
                for (int k = 0; k < K; k++) {
                    int r = ta ? k : i, c = ta ? i : k;
                    A.data[p * A.stride + (col ? c * A.ld + r : r * A.ld + c)] = a[p][i][k];
                }
            for (int k = 0; k < K; k++)
                for (int j = 0; j < N; j++) {
                    int r = tb ? j : k, c = tb ? k : j;
                    B.data[p * B.stride + (col ? c * B.ld + r : r * B.ld + c)] = b[p][k][j];
                }
        }
        memcpy(C.buf, C0.buf, host_matrix_buffer_bytes(&C0));
        for (int p = 0; p < BATCH; p++)
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    float acc = 0.0f;
                    for (int k = 0; k < K; k++)
                        acc += a[p][i][k] * b[p][k][j];
                    size_t at = p * C.stride + (col ? (size_t)j * C.ld + i : (size_t)i * C.ld + j);
                    C.data[at] = -1.5f * acc + 0.5f * C0.data[at];
                }
        for (int full = 0; full <= 1; full++) {
            reference ref;
            EXPECT(reference_build(&ref, &A, &B, &C0, -1.5f, 0.5f, full, 9) == 0);
            EXPECT(ref.shape.M == M && ref.shape.N == N && ref.shape.K == K && ref.batch == BATCH);
            EXPECT(reference_error(&ref, &C) < tolerance_f32(K));
            /* the last problem's corner, wrong: both modes look at it */
            size_t corner = (BATCH - 1) * C.stride +
                            (col ? (size_t)(N - 1) * C.ld + M - 1 : (size_t)(M - 1) * C.ld + N - 1);
            float keep = C.data[corner];
            C.data[corner] += 0.01f;
            EXPECT(reference_error(&ref, &C) > tolerance_f32(K));
            C.data[corner] = keep;
            reference_free(&ref);
        }
        memcpy(D.buf, C.buf, host_matrix_buffer_bytes(&C));
        EXPECT(compare_error(&A, &B, &C0, -1.5f, 0.5f, &C, &D) == 0.0);
        D.data[C.stride + 2] += 0.05f; /* an entry of the second problem */
        EXPECT(compare_error(&A, &B, &C0, -1.5f, 0.5f, &C, &D) > tolerance_f32(K));
        /* writes outside the matrices: none; then one into the padding after problem 0's
         * first line (when there is padding) and one before the offset */
        size_t first = 0;
        EXPECT(host_matrix_outside_changes(&C0, &C, &first) == 0);
        if (pad) {
            C.data[col ? M : N] = 1.0f;
            EXPECT(host_matrix_outside_changes(&C0, &C, &first) == 1 &&
                   first == OFF + (size_t)(col ? M : N));
        }
        C.buf[1] = 2.0f;
        EXPECT(host_matrix_outside_changes(&C0, &C, &first) == (pad ? 2u : 1u) && first == 1);
        host_matrix_free(&A);
        host_matrix_free(&B);
        host_matrix_free(&C0);
        host_matrix_free(&C);
        host_matrix_free(&D);
    }
}

static void test_dtype_tolerance(void)
{
    for (int K = 1; K <= 1 << 14; K *= 4) {
        /* inputs already 16-bit: only the accumulation, below a quarter of one lost term
         * (~4/K) up to K = 16384 */
        EXPECT(tolerance_for_inputs("f16", "f16", K) < tolerance_for("f16", K) / 8);
        EXPECT(tolerance_for_inputs("bf16", "bf16", K) < 1.0 / K);
        EXPECT(tolerance_for_inputs("f16", "f16", K) == tolerance_for("tf32x3", K));
        EXPECT(tolerance_for_inputs("fp32", "bf16", K) == tolerance_f32(K));
        EXPECT(tolerance_for_inputs("tf32", "f16", K) == tolerance_for("tf32x3", K));
        /* f16 does not hold bf16's values (nor the other way): rounding counts again */
        EXPECT(tolerance_for_inputs("f16", "bf16", K) == tolerance_for("f16", K));
        EXPECT(tolerance_for_inputs("bf16", "f16", K) == tolerance_for("bf16", K));
        EXPECT(tolerance_for_inputs("tf32", "f32", K) == tolerance_for("tf32", K));
        EXPECT(tolerance_for_inputs("tf32", NULL, K) == tolerance_for("tf32", K));
    }
    EXPECT(tolerance_for("bf16", 64) > tolerance_for("f16", 64));
}

int main(void)
{
    test_check();
    test_check_layouts();
    test_dtype_tolerance();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
