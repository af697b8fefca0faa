/* The wgmma primitive of cl/mma/wgmma.h against a plain reference, one instruction sequence at a
 * time, on one device ($CLGEMM_TEST_DEVICE, else pocl):
 *   - on NVIDIA compute capability 9.x: the real wgmma.mma_async, built through the sm_90a
 *     post-pass of host/lib/program.c (so this is also the end-to-end test of that pass);
 *   - anywhere else: its emulation (cl/mma/wgmma_emulated.h, CLGEMM_EMULATE_WGMMA=1).
 * For N in 8 .. 256 and several local-memory layouts of A (64 x 16) and B^T (N x 16) (core
 * matrices side by side or K-outer, padded strides, a start that is only 16-byte aligned), a
 * kernel places random small integers where this file's own reading of the PTX ISA says the
 * descriptor points, fills every other byte of local memory with NaN, loads D0 into the
 * accumulators by this file's own reading of the D fragment figure, runs two k8 steps and
 * writes D back by the same reading.  Small integers make every product and sum exact, so
 * the result must equal D0 + A*B exactly; a mismatch names the entry.  The kernel's
 * placement and fragment formulas are written here independently of cl/mma/ and the
 * kernels, so the emulation is checked against them, and on the GPU the hardware is.
 * The tf32 form also runs with the low 13 bits of every fp32 operand set: the tensor core
 * reads an fp32 operand from local memory truncated to tf32 (no rounding), so the result must
 * still be D0 + A*B of the integers exactly, on the GPU and in the emulation alike.
 *
 * The same for the 16-bit form m64nNk16 (f16 and bf16 bit patterns of small integers, A 64 x 32
 * and B 32 x N, two k16 steps), with B K-major and N-major (the transpose-B immediate), and
 * a planted mismatch (B placed N-major, read K-major) that must be seen.
 *
 * And the swizzled layouts of the 16-bit form (descriptor layout type 1, 2, 3: 128-, 64- and
 * 32-byte swizzle), A K-major and B N-major as cl/09_wgmma.cl and cl/10_wgmma_tma.cl use them: the
 * kernel places each value at its logical address (CUTLASS's canonical swizzled GMMA
 * layouts, written out here) with the 16-byte chunk index XORed with the address bits above
 * 128 bytes, and steps k inside a swizzle row by moving the start address; a planted
 * mismatch (values placed unswizzled, the descriptor saying swizzled) must be seen.
 *
 * It also checks that a program asking for the post-pass (PROGRAM_SM90A_OPTION) on a device
 * that cannot take it comes back "unsupported" with the reason: a device that is not
 * compute capability 9.x is refused before building, and a binary that is not PTX is
 * refused by the rewrite (checked where the device is not NVIDIA, by pretending it is 9.0).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "dtype.h"
#include "program.h"

static int failures, checks;

#define EXPECT(cond, ...)                                                                   \
    do {                                                                                    \
        checks++;                                                                           \
        if (!(cond)) {                                                                      \
            failures++;                                                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                            \
            fprintf(stderr, __VA_ARGS__);                                                   \
            fprintf(stderr, "\n");                                                          \
        }                                                                                   \
    } while (0)

#define KSTEPS 2                  /* k8 steps per run: K = 16, four core matrices along K */
#define KDIM (8 * KSTEPS)
#define ARENA_BYTES 40960

#include "wgmma_test_kernels.h"

/* Which instruction a run tests: tf32 (bits 0) or 16-bit (1 f16, 2 bf16), B's transpose
 * immediate, where the kernel places B (N-major or not), and whether it must fail (a planted
 * mismatch between the two: the check must see it); low_bits (tf32): the low 13 bits of every
 * operand set, which the tensor core must drop. */
typedef struct mode {
    int bits16, trans_b, place_mn, expect_fail, swz, place_swz, low_bits;
} mode;

#include "wgmma_test_layouts.h"

static unsigned rng = 12345;
static int small_int(int range) /* -range .. range */
{
    rng = rng * 1103515245u + 12345u;
    return (int)((rng >> 16) % (unsigned)(2 * range + 1)) - range;
}

static void run_n(cl_context ctx, cl_command_queue q, const device_info *dev, int n,
                  const char *header, const char *base_options, mode md)
{
    const bool h = md.bits16 != 0;
    const int kdim = h ? 2 * KDIM : KDIM;   /* values along K: 16 tf32 or 32 16-bit */
    char tag[64];
    char swz_tag[32] = "";
    if (md.swz)
        snprintf(swz_tag, sizeof swz_tag, " %dB swizzle", md.swz);
    snprintf(tag, sizeof tag, "%s%s%s%s%s", !h ? "tf32" : md.bits16 == 2 ? "bf16" : "f16",
             !h ? "" : md.trans_b ? " B N-major" : " B K-major", swz_tag,
             md.low_bits ? " low bits set" : "", md.expect_fail ? " (planted mismatch)" : "");
    size_t len = strlen(header) + sizeof kernelswz_text + sizeof kernelswz32_text + 240;
    char *source = malloc(len);
    snprintf(source, len,
             "%s\n#define TEST_N %d\n#define TEST_DTYPE %d\n#define TEST_TRANS_B %d\n"
             "#define TEST_PLACE_MN %d\n#define TEST_SWZ %d\n#define TEST_PLACE_SWZ %d\n%s",
             header, n, md.bits16, md.trans_b, md.place_mn, md.swz, md.place_swz,
             md.swz ? (h ? kernelswz_text : kernelswz32_text) : h ? kernel16_text : kernel_text);
    char *log = NULL;
    bool cached, unsupported;
    errbuf e = { "" };
    cl_program prog = program_build(ctx, dev, source, base_options, &log, &cached,
                                    &unsupported, &e);
    free(source);
    EXPECT(prog != NULL, "N=%d: build: %s%s%s", n, e.msg, log ? "\n" : "", log ? log : "");
    free(log);
    if (!prog)
        return;
    cl_int st;
    cl_kernel k = clCreateKernel(prog, md.swz ? (h ? "wgmmaswz_fragment_test"
                                                   : "wgmmaswz32_fragment_test")
                                       : h ? "wgmma16_fragment_test" : "wgmma_fragment_test",
                                 &st);
    EXPECT(k != NULL, "N=%d: clCreateKernel: %s", n, cl_error_name(st));

    float *a = malloc(sizeof(float) * 64 * kdim), *b = malloc(sizeof(float) * kdim * n);
    float *d0 = malloc(sizeof(float) * 64 * n), *d = malloc(sizeof(float) * 64 * n);
    uint16_t *a16 = malloc(sizeof(uint16_t) * 64 * kdim), *b16 = malloc(sizeof(uint16_t) * kdim * n);
    float *a_up = malloc(sizeof(float) * 64 * kdim), *b_up = malloc(sizeof(float) * kdim * n);
    const size_t esz = h ? sizeof(uint16_t) : sizeof(float);
    cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY, esz * 64 * kdim, NULL, &st);
    cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY, esz * kdim * n, NULL, &st);
    cl_mem bd0 = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof(float) * 64 * n, NULL, &st);
    cl_mem bd = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(float) * 64 * n, NULL, &st);
    for (int kind = 0; k && kind < (md.swz ? 2 : 4); kind++) {
        layout l = md.swz ? (h ? make_layout_swz(kind, n, md.swz)
                               : make_layout_swz32(kind, n, md.swz))
                          : make_layout(kind, n);
        if ((md.swz ? (h ? b_extent_swz(&l, n, md.swz) : b_extent_swz32(&l, md.swz))
                    : b_extent(&l, n)) > ARENA_BYTES) {
            if (md.swz)   /* the padded swizzled layouts at the widest N of 32B: skipped */
                continue;
            fprintf(stderr, "layout %s does not fit for N=%d\n", l.name, n);
            failures++;
            continue;
        }
        for (int i = 0; i < 64 * kdim; i++) {
            a[i] = (float)small_int(4);
            a16[i] = md.bits16 == 2 ? f32_to_bf16_bits(a[i]) : f32_to_f16_bits(a[i]);
        }
        for (int i = 0; i < kdim * n; i++) {
            b[i] = (float)small_int(4);
            b16[i] = md.bits16 == 2 ? f32_to_bf16_bits(b[i]) : f32_to_f16_bits(b[i]);
        }
        for (int i = 0; i < 64 * n; i++)
            d0[i] = (float)small_int(64);
        /* What the device gets: the values, or with low_bits each fp32 value with its low 13
         * bits set (the reference stays the integers: truncation must drop those bits). */
        for (int i = 0; i < 64 * kdim + kdim * n; i++) {
            const float *from = i < 64 * kdim ? &a[i] : &b[i - 64 * kdim];
            float *to = i < 64 * kdim ? &a_up[i] : &b_up[i - 64 * kdim];
            uint32_t bits;
            memcpy(&bits, from, sizeof bits);
            bits |= md.low_bits ? 0x1fffu : 0u;
            memcpy(to, &bits, sizeof bits);
        }
        clEnqueueWriteBuffer(q, ba, CL_TRUE, 0, esz * 64 * kdim, h ? (void *)a16 : (void *)a_up,
                             0, NULL, NULL);
        clEnqueueWriteBuffer(q, bb, CL_TRUE, 0, esz * kdim * n, h ? (void *)b16 : (void *)b_up,
                             0, NULL, NULL);
        clEnqueueWriteBuffer(q, bd0, CL_TRUE, 0, sizeof(float) * 64 * n, d0, 0, NULL, NULL);
        cl_mem bufs[4] = { ba, bb, bd0, bd };
        int ints[6] = { l.a_at, l.a_lbo, l.a_sbo, l.b_at, l.b_lbo, l.b_sbo };
        for (int i = 0; i < 4; i++)
            clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &bufs[i]);
        for (int i = 0; i < 6; i++)
            clSetKernelArg(k, (cl_uint)(4 + i), sizeof(int), &ints[i]);
        size_t global = 128, local = 128;
        st = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
        if (st == CL_SUCCESS)
            st = clEnqueueReadBuffer(q, bd, CL_TRUE, 0, sizeof(float) * 64 * n, d, 0, NULL,
                                     NULL);
        EXPECT(st == CL_SUCCESS, "N=%d %s: run: %s", n, l.name, cl_error_name(st));
        if (st != CL_SUCCESS)
            continue;
        int wrong = 0;
        for (int r = 0; r < 64; r++)
            for (int c = 0; c < n; c++) {
                double want = d0[r * n + c];
                for (int kk = 0; kk < kdim; kk++)
                    want += (double)a[r * kdim + kk] * b[kk * n + c];
                float got = d[r * n + c];
                if (!(got == (float)want)) {
                    if (wrong < 4 && !md.expect_fail)
                        fprintf(stderr, "  N=%d %s %s: D[%d][%d] = %g, want %g\n", n, tag,
                                l.name, r, c, got, want);
                    wrong++;
                }
            }
        if (md.expect_fail) {
            EXPECT(wrong > 0, "N=%d %s, layout %s: a planted mismatch went unnoticed", n, tag,
                   l.name);
            if (wrong > 0)
                printf("ok   N=%-3d %s %s: %d of %d entries wrong, as planted\n", n, tag,
                       l.name, wrong, 64 * n);
            break;   /* one layout is enough */
        }
        EXPECT(wrong == 0, "N=%d %s, layout %s (A at %d LBO %d SBO %d, B at %d LBO %d SBO %d): "
               "%d of %d entries wrong", n, tag, l.name, l.a_at, l.a_lbo, l.a_sbo, l.b_at,
               l.b_lbo, l.b_sbo, wrong, 64 * n);
        if (wrong == 0)
            printf("ok   N=%-3d %s %s\n", n, tag, l.name);
    }
    clReleaseMemObject(ba);
    clReleaseMemObject(bb);
    clReleaseMemObject(bd0);
    clReleaseMemObject(bd);
    free(a);
    free(b);
    free(d0);
    free(d);
    free(a16);
    free(b16);
    free(a_up);
    free(b_up);
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(prog);
}

/* The post-pass asked for where it cannot work: "unsupported", with the reason. */
static void check_unsupported(cl_context ctx, const device_info *dev)
{
    const char *src = "__kernel void k(__global int *x) { x[0] = 1; }\n";
    const char *options = PROGRAM_BASE_OPTIONS " -cl-std=CL1.2 " PROGRAM_SM90A_OPTION;
    EXPECT(program_wants_sm90a(options) && !program_wants_sm90a("-DCLGEMM_PTX_SM90A=10") &&
               !program_wants_sm90a("-DXCLGEMM_PTX_SM90A=1") &&
               !program_wants_sm90a("-U-DCLGEMM_PTX_SM90A=1") &&
               program_wants_sm90a("-DCLGEMM_PTX_SM90A=10 -DCLGEMM_PTX_SM90A=1"),
           "program_wants_sm90a reads the option as a word");
    EXPECT(program_ptx_maxnreg("-DA=1 " PROGRAM_MAXNREG_OPTION "128 -DB=2") == 128 &&
               program_ptx_maxnreg("-DA=1") == 0 &&
               program_ptx_maxnreg("-U" PROGRAM_MAXNREG_OPTION "128") == 0 &&
               program_ptx_maxnreg(PROGRAM_MAXNREG_OPTION "128x") == -1 &&
               program_ptx_maxnreg(PROGRAM_MAXNREG_OPTION) == -1 &&
               program_ptx_maxnreg(PROGRAM_MAXNREG_OPTION "12") == -1,
           "program_ptx_maxnreg reads the option as a word, its value whole and in range");

    device_info fake = *dev;
    fake.nv_cc_major = 8;
    fake.nv_cc_minor = 0;
    char *log = NULL;
    bool cached, unsupported = false;
    errbuf e = { "" };
    cl_program p = program_build(ctx, &fake, src, options, &log, &cached, &unsupported, &e);
    EXPECT(!p && unsupported && strstr(e.msg, "compute capability 9.x"),
           "cc 8.0 is unsupported before building: %s", e.msg);
    free(log);
    if (p)
        clReleaseProgram(p);

    if (dev->nv_cc_major >= 0)
        return; /* an NVIDIA binary is PTX: the next check needs a device whose isn't */
    fake.nv_cc_major = 9;
    log = NULL;
    unsupported = false;
    e.msg[0] = '\0';
    p = program_build(ctx, &fake, src, options, &log, &cached, &unsupported, &e);
    EXPECT(!p && unsupported && strstr(e.msg, "sm_90a post-pass") && strstr(e.msg, "not PTX"),
           "a binary that is not PTX is unsupported, with the reason: %s", e.msg);
    printf("ok   post-pass refused where it cannot work: %s\n", e.msg);
    free(log);
    if (p)
        clReleaseProgram(p);
}

int main(void)
{
    const char *spec = getenv("CLGEMM_TEST_DEVICE");
    if (!spec || !*spec)
        spec = "pocl";
    device_list list;
    errbuf e = { "" };
    size_t picked[64];
    if (devices_enumerate(&list, &e) != 0 || list.count > 64) {
        fprintf(stderr, "test_wgmma: %s\n", e.msg);
        return 1;
    }
    if (devices_select(&list, spec, picked, &e) < 1) {
        fprintf(stderr, "test_wgmma: %s\n", e.msg);
        devices_free(&list);
        return 1;
    }
    const device_info *dev = &list.items[picked[0]];
    const bool hardware = dev->nv_cc_major == 9;
    printf("device: %s (%s), %s\n", dev->name, dev->platform_name,
           hardware ? "real wgmma through the sm_90a post-pass" : "emulated wgmma");

    cl_int st;
    cl_context ctx = clCreateContext(NULL, 1, &dev->id, NULL, NULL, &st);
    cl_command_queue q = ctx ? clCreateCommandQueue(ctx, dev->id, 0, &st) : NULL;
    char *header = q ? kernel_source_load("mma/wgmma.h", &e) : NULL;
    if (!header) {
        fprintf(stderr, "test_wgmma: %s%s\n", e.msg, q ? "" : cl_error_name(st));
        return 1;
    }
    const char *options = hardware
        ? PROGRAM_BASE_OPTIONS " -cl-std=CL1.2 " PROGRAM_SM90A_OPTION
        : PROGRAM_BASE_OPTIONS " -cl-std=CL1.2 -DCLGEMM_EMULATE_WGMMA=1";
    const int ns[] = { 8, 16, 32, 64, 128, 256 };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        run_n(ctx, q, dev, ns[i], header, options, (mode){ 0, 0, 0, 0, 0, 0, 0 });
    /* The tensor core truncates fp32 operands it reads from local memory (what step 10's
     * TF32 path relies on with PACKA=0): unswizzled and 128-byte swizzled, low bits set. */
    run_n(ctx, q, dev, 64, header, options, (mode){ 0, 0, 0, 0, 0, 0, 1 });
    run_n(ctx, q, dev, 256, header, options, (mode){ 0, 0, 0, 0, 128, 1, 1 });
    /* m64nNk16: f16 and bf16 with B N-major (what cl/09_wgmma.cl uses) at every N, B
     * K-major at two, and B placed N-major but read as K-major, which must fail. */
    for (int bits = 1; bits <= 2; bits++) {
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            run_n(ctx, q, dev, ns[i], header, options, (mode){ bits, 1, 1, 0, 0, 0, 0 });
        run_n(ctx, q, dev, 16, header, options, (mode){ bits, 0, 0, 0, 0, 0, 0 });
        run_n(ctx, q, dev, 64, header, options, (mode){ bits, 0, 0, 0, 0, 0, 0 });
    }
    run_n(ctx, q, dev, 16, header, options, (mode){ 1, 0, 1, 1, 0, 0, 0 });
    /* Swizzled (cl/09_wgmma.cl's SWZ, cl/10_wgmma_tma.cl's boxes): A K-major, B N-major, each swizzle width, N from
     * one atom row of B up; then values placed unswizzled under a swizzled descriptor. */
    for (int swz = 32; swz <= 128; swz *= 2)
        for (int bits = 1; bits <= 2; bits++)
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
                if (ns[i] >= swz / 2 && (bits == 1 || ns[i] == 128))
                    run_n(ctx, q, dev, ns[i], header, options,
                          (mode){ bits, 1, 1, 0, swz, 1, 0 });
    run_n(ctx, q, dev, 64, header, options, (mode){ 1, 1, 1, 1, 128, 0, 0 });
    run_n(ctx, q, dev, 64, header, options, (mode){ 1, 1, 1, 1, 32, 0, 0 });
    /* Swizzled tf32 (cl/10_wgmma_tma.cl's TF32 boxes): both operands K-major, each width, every N; then
     * values placed unswizzled under a swizzled descriptor, which must fail. */
    for (int swz = 32; swz <= 128; swz *= 2)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            run_n(ctx, q, dev, ns[i], header, options, (mode){ 0, 0, 0, 0, swz, 1, 0 });
    run_n(ctx, q, dev, 64, header, options, (mode){ 0, 0, 0, 1, 64, 0, 0 });
    run_n(ctx, q, dev, 64, header, options, (mode){ 0, 0, 0, 1, 32, 0, 0 });
    check_unsupported(ctx, dev);
    free(header);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    devices_free(&list);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
