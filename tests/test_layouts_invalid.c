/* clgemm_gemm's refusals (public API only), for tests/test_layouts.c: every invalid field
 * of the descriptor is refused with its name and the words that say why, before anything is
 * enqueued; an interleaved batch (A[i] and C[i] in one buffer, sharing no byte) runs. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "clgemm.h"

int test_layouts_invalid(clgemm_context *ctx);

static clgemm_context *ctx;
static int failures;

/* One refused call: the status wanted, the function's name and the field's words. */
static void refuse(const char *field, clgemm_gemm_desc d, clgemm_status want, const char *words)
{
    clgemm_status st = clgemm_gemm(ctx, &d, NULL, NULL, NULL);
    const char *msg = clgemm_last_error();
    bool ok = st == want && strncmp(msg, "clgemm_gemm: ", 13) == 0 && strstr(msg, words);
    printf("%s %-10s -> %s (%s)\n", ok ? "ok  " : "FAIL", field, clgemm_status_string(st), msg);
    failures += !ok;
}

int test_layouts_invalid(clgemm_context *context)
{
    ctx = context;
    failures = 0;
    const cl_context cl = clgemm_cl_context(ctx);
    cl_int err;
    cl_mem a = clCreateBuffer(cl, CL_MEM_READ_WRITE, 64 * 4, NULL, &err);
    cl_mem b = clCreateBuffer(cl, CL_MEM_READ_WRITE, 64 * 4, NULL, &err);
    cl_mem c = clCreateBuffer(cl, CL_MEM_READ_WRITE, 128 * 4, NULL, &err);
    const clgemm_gemm_desc ok = { .algorithm = "naive", .M = 8, .N = 8, .K = 8, .alpha = 1.0f,
                                  .A = a, .ld_a = 8, .B = b, .ld_b = 8, .C = c, .ld_c = 8 };
    clgemm_gemm_desc d;
    const size_t big = (size_t)1 << 31;
    clgemm_status st = clgemm_gemm(ctx, NULL, NULL, NULL, NULL);
    bool named = st == CLGEMM_ERROR_INVALID_ARGUMENT && strstr(clgemm_last_error(), "descriptor");
    printf("%s %-10s -> %s (%s)\n", named ? "ok  " : "FAIL", "desc", clgemm_status_string(st),
           clgemm_last_error());
    failures += !named;
    st = clgemm_gemm(NULL, &ok, NULL, NULL, NULL);
    named = st == CLGEMM_ERROR_INVALID_ARGUMENT && strstr(clgemm_last_error(), "context");
    printf("%s %-10s -> %s (%s)\n", named ? "ok  " : "FAIL", "ctx", clgemm_status_string(st),
           clgemm_last_error());
    failures += !named;
#define BAD(field, change, status, words) (d = ok, change, refuse(field, d, status, words))
    const clgemm_status I = CLGEMM_ERROR_INVALID_ARGUMENT;
    BAD("layout", d.layout = (clgemm_layout)2, I, "layout 2");
    BAD("op_a", d.op_a = (clgemm_op)5, I, "op_a 5");
    BAD("op_b", d.op_b = (clgemm_op)-1, I, "op_b -1");
    BAD("M", d.M = 0, I, "M 0 out of range");
    BAD("N", d.N = big, I, "N 2147483648 out of range");
    BAD("K", d.K = 0, I, "K 0 out of range");
    BAD("batch", d.batch = big, I, "batch 2147483648");
    BAD("ab_type", d.ab_type = (clgemm_dtype)7, I, "ab_type 7");
    BAD("A", d.A = NULL, I, "A: NULL buffer");
    BAD("B", d.B = NULL, I, "B: NULL buffer");
    BAD("C", d.C = NULL, I, "C: NULL buffer");
    BAD("ld_a", (d.op_a = CLGEMM_OP_T, d.M = 5, d.ld_a = 3), I,
        "ld_a 3 < 5, the length of a stored row of A (row-major, op_a T: A is K x M)");
    BAD("ld_b", (d.layout = CLGEMM_COL_MAJOR, d.ld_a = 8, d.ld_b = 7), I,
        "ld_b 7 < 8, the length of a stored column of B (column-major, op_b N: B is K x N)");
    BAD("ld_c", d.ld_c = 7, I, "ld_c 7 < 8, the length of a stored row of C");
    BAD("ld_a", d.ld_a = big, I, "ld_a 2147483648 beyond 32-bit indexing");
    BAD("off_a", d.off_a = 1, I, "A: buffer has 256 bytes, needs 260 (off_a 1");
    BAD("off_b", d.off_b = big, I, "off_b 2147483648 beyond 32-bit");
    BAD("off_c", d.off_c = 65, I, "C: buffer has 512 bytes, needs 516 (off_c 65");
    BAD("off_a", d.off_a = big - 60, I, "off_a + (batch-1) * stride_a");
    BAD("stride_a", (d.batch = 2, d.stride_a = 64, d.stride_c = 64), I, "stride_a 64");
    BAD("stride_b", (d.batch = 2, d.stride_b = big, d.stride_c = 64), I,
        "stride_b 2147483648 beyond");
    BAD("stride_c", (d.batch = 2, d.stride_c = 63), I,
        "stride_c 63 < 64, the extent of one C: C[i] would overlap C[i+1]");
    BAD("stride_c", (d.batch = 3, d.stride_c = 64), I, "C: buffer has 512 bytes, needs 768");
    BAD("C/A", (d.A = c, d.off_a = 60), I, "C overlaps A");
    BAD("C/B", (d.B = c, d.off_b = 8), I, "C overlaps B");
    BAD("C/B", (d.B = c, d.batch = 2, d.stride_c = 64, d.off_b = 64), I, "C overlaps B");
    BAD("algorithm", d.algorithm = "nosuch", CLGEMM_ERROR_UNKNOWN_ALGORITHM,
        "unknown algorithm 'nosuch'");
    BAD("algorithm", d.algorithm = "naive:FOO=1", I, "unknown parameter 'FOO' for naive");
    BAD("ab_type", d.ab_type = CLGEMM_F16, CLGEMM_ERROR_UNSUPPORTED, "takes no f16 data");
    /* C's type, the epilogue and its bias */
    BAD("c_type", d.c_type = (clgemm_dtype)3, I, "c_type 3 is not a clgemm_dtype");
    BAD("epilogue", d.epilogue = (clgemm_epilogue)6, I, "epilogue 6 is not a clgemm_epilogue");
    BAD("epilogue", d.epilogue = (clgemm_epilogue)-1, I, "epilogue -1");
    BAD("bias", d.epilogue = CLGEMM_EPILOGUE_BIAS_GELU, I,
        "bias: NULL buffer, but epilogue bias_gelu adds a bias of N values");
    BAD("bias", d.bias = b, I, "bias: a buffer is given but epilogue none adds none");
    BAD("bias", (d.epilogue = CLGEMM_EPILOGUE_GELU, d.bias = b), I,
        "bias: a buffer is given but epilogue gelu adds none");
    BAD("off_bias", d.off_bias = 3, I, "off_bias 3 without a bias (epilogue none)");
    BAD("off_bias", (d.epilogue = CLGEMM_EPILOGUE_BIAS, d.bias = b, d.off_bias = 57), I,
        "bias: buffer has 256 bytes, needs 260 (off_bias 57 + N 8 elements of f32");
    BAD("off_bias", (d.epilogue = CLGEMM_EPILOGUE_BIAS, d.bias = b, d.off_bias = big), I,
        "off_bias 2147483648 + N 8 beyond 32-bit indexing");
    /* 16-bit C: half the bytes per element, for C and for the bias */
    BAD("off_bias", (d.c_type = CLGEMM_BF16, d.epilogue = CLGEMM_EPILOGUE_BIAS_RELU,
                     d.bias = b, d.off_bias = 121), I,
        "bias: buffer has 256 bytes, needs 258 (off_bias 121 + N 8 elements of bf16, 2 bytes");
    BAD("off_c", (d.c_type = CLGEMM_F16, d.off_c = 193), I,
        "C: buffer has 512 bytes, needs 514 (off_c 193");
    BAD("bias/C", (d.epilogue = CLGEMM_EPILOGUE_BIAS, d.bias = c, d.off_bias = 60), I,
        "bias overlaps C");
    BAD("bias/C", (d.c_type = CLGEMM_F16, d.epilogue = CLGEMM_EPILOGUE_BIAS, d.bias = c,
                   d.off_bias = 60), I, "bias overlaps C");
#undef BAD
    /* A bias right after C in the same buffer shares no byte: it runs. */
    d = ok;
    d.epilogue = CLGEMM_EPILOGUE_BIAS_RELU;
    d.bias = c;
    d.off_bias = 64;
    st = clgemm_gemm(ctx, &d, NULL, NULL, NULL);
    printf("%s a bias beside C in one buffer -> %s %s\n", st ? "FAIL" : "ok  ",
           clgemm_status_string(st), clgemm_last_error());
    failures += st != CLGEMM_SUCCESS;
    /* Interleaved: A[0] C[0] A[1] C[1] in one buffer share no byte, and run. */
    d = ok;
    d.A = d.C = c;
    d.batch = 2;
    d.stride_a = d.stride_c = 64;
    d.off_c = 32;
    d.M = 4;
    st = clgemm_gemm(ctx, &d, NULL, NULL, NULL);
    printf("%s interleaved A[i] and C[i] in one buffer -> %s %s\n", st ? "FAIL" : "ok  ",
           clgemm_status_string(st), clgemm_last_error());
    failures += st != CLGEMM_SUCCESS;
    clFinish(clgemm_cl_queue(ctx));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    return failures;
}
