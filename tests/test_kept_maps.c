/* Step 10's kept tensor maps (host/lib/tma_map_cache.h) on the hardware: a call that finds
 * its maps kept by an earlier one copies through them, so they must never serve other
 * buffers.  Through the public API, bf16 data of small integers (every product and sum exact
 * in fp32, so every element of C is compared for equality with the host's):
 *   1. the same call twice (the second reads the kept maps), and again after A's contents
 *      changed (maps hold addresses, not data);
 *   2. two operand sets alternating, more than once round;
 *   3. the second set released and a third made (the same sizes, so its handles may be the
 *      released ones), at once used: a kept slot of the released set would read freed memory;
 *   4. one buffer at different offsets (another key each), and a batch;
 *   5. more operand sets in turn than there are keep slots;
 *   6. each set twice in a row, more sets than slots: a slot kept and read for one set is
 *      written for another and read again (no copy may use the maps it held before).
 *   7. the same call on a second queue and back: a call on another queue gets new slots (the
 *      kept ones belong to the queue that wrote them).
 * Only NVIDIA Hopper with libcuda copies through tensor maps: anywhere else this test says so
 * and exits 77 (skipped), never passed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clgemm.h"
#include "tensor_map.h"
#include "tma_map_cache.h"

#define ROWS 128 /* M */
#define COLS 192 /* N */
#define DEPTH 256 /* K */
#define SETS (TMA_MAP_KEEP_SLOTS + 3)

static int failures, checks;

typedef struct set {
    cl_mem a, b, c;
    cl_ushort ha[2 * ROWS * DEPTH], hb[DEPTH * COLS]; /* A with room for an offset */
} set;

static void fill(cl_ushort *bits, size_t count, unsigned seed)
{
    for (size_t i = 0; i < count; i++) {
        seed = seed * 1664525u + 1013904223u;
        bits[i] = clgemm_float_to_16bit((float)((int)(seed >> 28) % 5 - 2), CLGEMM_BF16);
    }
}

/* A set's buffers, `scale` times as large as they need to be (a larger allocation lands
 * elsewhere in device memory, while a released handle may still come back). */
static int make(clgemm_context *ctx, set *s, unsigned seed, size_t scale)
{
    cl_int st;
    fill(s->ha, 2 * ROWS * DEPTH, seed);
    fill(s->hb, DEPTH * COLS, seed + 7);
    const cl_context cx = clgemm_cl_context(ctx);
    const cl_command_queue q = clgemm_cl_queue(ctx);
    s->a = clCreateBuffer(cx, CL_MEM_READ_WRITE, scale * sizeof s->ha, NULL, &st);
    s->b = clCreateBuffer(cx, CL_MEM_READ_WRITE, scale * sizeof s->hb, NULL, &st);
    s->c = clCreateBuffer(cx, CL_MEM_READ_WRITE, 2 * (size_t)ROWS * COLS * sizeof(float), NULL,
                          &st);
    return s->a && s->b && s->c &&
                   clEnqueueWriteBuffer(q, s->a, CL_TRUE, 0, sizeof s->ha, s->ha, 0, NULL,
                                        NULL) == CL_SUCCESS &&
                   clEnqueueWriteBuffer(q, s->b, CL_TRUE, 0, sizeof s->hb, s->hb, 0, NULL,
                                        NULL) == CL_SUCCESS
               ? 0
               : -1;
}

/* In the reverse order of make's, so that an allocator that hands back the last freed handle
 * first gives the next set the same handles, each in its place. */
static void drop(set *s)
{
    clReleaseMemObject(s->c);
    clReleaseMemObject(s->b);
    clReleaseMemObject(s->a);
}

/* C = A[off_a ..] B (batch 1), or a batch of 2 with A's problems M x K apart and B shared;
 * every element compared with the host's exact sums.  Returns the number of wrong ones. */
static cl_command_queue on_queue; /* NULL: the context's */

static int run(clgemm_context *ctx, set *s, size_t off_a, size_t batch, const char *what)
{
    clgemm_gemm_desc d = { 0 };
    /* Step 10 by name (whatever the rules choose), C through the copy engine too (C's map is
     * kept with A's and B's); a batch as the batch rules run it. */
    d.algorithm = batch > 1 ? "wgmma_tma:BN=128,WGN=128,STAGES=4,PERSIST=1,TSTORE=1"
                            : "wgmma_tma:BN=128,WGN=128,TSTORE=1";
    d.M = ROWS, d.N = COLS, d.K = DEPTH, d.alpha = 1.0f, d.beta = 0.0f;
    d.ab_type = CLGEMM_BF16, d.c_type = CLGEMM_F32;
    d.A = s->a, d.off_a = off_a, d.ld_a = DEPTH, d.stride_a = (size_t)ROWS * DEPTH;
    d.B = s->b, d.ld_b = COLS, d.stride_b = 0;
    d.C = s->c, d.ld_c = COLS, d.stride_c = (size_t)ROWS * COLS;
    d.batch = batch;
    static float got[2 * ROWS * COLS];
    checks++;
    const cl_command_queue q = on_queue ? on_queue : clgemm_cl_queue(ctx);
    if (clgemm_gemm(ctx, &d, q, NULL, NULL) != CLGEMM_SUCCESS ||
        clEnqueueReadBuffer(q, s->c, CL_TRUE, 0,
                            batch * ROWS * COLS * sizeof(float), got, 0, NULL,
                            NULL) != CL_SUCCESS) {
        printf("FAIL %s: %s\n", what, clgemm_last_error());
        failures++;
        return -1;
    }
    int wrong = 0;
    for (size_t p = 0; p < batch; p++)
        for (int i = 0; i < ROWS; i++)
            for (int j = 0; j < COLS; j++) {
                float want = 0.0f;
                const cl_ushort *a = s->ha + off_a + p * ROWS * DEPTH + (size_t)i * DEPTH;
                for (int k = 0; k < DEPTH; k++)
                    want += clgemm_16bit_to_float(a[k], CLGEMM_BF16) *
                            clgemm_16bit_to_float(s->hb[(size_t)k * COLS + j], CLGEMM_BF16);
                wrong += got[p * ROWS * COLS + (size_t)i * COLS + j] != want;
            }
    printf("%s %s: %d of %zu wrong\n", wrong ? "FAIL" : "ok  ", what, wrong,
           batch * ROWS * COLS);
    failures += wrong != 0;
    return wrong;
}

int main(void)
{
    const char *spec = getenv("CLGEMM_TEST_DEVICE");
    clgemm_context *ctx;
    if (clgemm_open(spec && *spec ? spec : NULL, &ctx) != CLGEMM_SUCCESS) {
        fprintf(stderr, "test_kept_maps: %s\n", clgemm_last_error());
        return 1;
    }
    errbuf e = { "" };
    const clgemm_device_desc *dev = clgemm_device(ctx);
    if (dev->nv_cc_major != 9 || !tensor_map_available(&e)) {
        printf("test_kept_maps: no tensor maps on this device (%s): %s\n", dev->name,
               dev->nv_cc_major != 9 ? "not NVIDIA compute capability 9.x" : e.msg);
        clgemm_close(ctx);
        return 77;
    }
    printf("device: %s\n", dev->name);

    static set sets[SETS];
    for (int i = 0; i < 3; i++)
        if (make(ctx, &sets[i], 11u * (unsigned)i + 1, 1) != 0) {
            printf("FAIL buffers\n");
            return 1;
        }
    run(ctx, &sets[0], 0, 1, "1. a first call");
    run(ctx, &sets[0], 0, 1, "1. the same call again (kept maps)");
    fill(sets[0].ha, 2 * ROWS * DEPTH, 99);
    clEnqueueWriteBuffer(clgemm_cl_queue(ctx), sets[0].a, CL_TRUE, 0, sizeof sets[0].ha,
                         sets[0].ha, 0, NULL, NULL);
    run(ctx, &sets[0], 0, 1, "1. A's contents changed");
    for (int r = 0; r < 2; r++) {
        run(ctx, &sets[1], 0, 1, "2. the second set");
        run(ctx, &sets[0], 0, 1, "2. the first set");
    }
    const cl_mem was[3] = { sets[1].a, sets[1].b, sets[1].c };
    drop(&sets[1]);
    if (make(ctx, &sets[1], 555, 4) != 0)
        return 1;
    printf("     3. the new set's handles %s the released ones\n",
           sets[1].a == was[0] || sets[1].b == was[1] || sets[1].c == was[2] ? "reuse"
                                                                             : "differ from");
    run(ctx, &sets[1], 0, 1, "3. a set made after one was released");
    run(ctx, &sets[1], 0, 1, "3. the same again");
    run(ctx, &sets[2], 0, 1, "4. the third set");
    run(ctx, &sets[2], 8, 1, "4. A 8 values further on");
    run(ctx, &sets[2], 0, 1, "4. A at 0 again");
    run(ctx, &sets[2], 0, 2, "4. a batch of 2");
    run(ctx, &sets[2], 0, 2, "4. the batch again");
    for (int i = 3; i < SETS; i++)
        if (make(ctx, &sets[i], 31u * (unsigned)i, 1) != 0)
            return 1;
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < SETS; i++) {
            char what[64];
            snprintf(what, sizeof what, "5. set %d of %d, round %d", i + 1, SETS, r + 1);
            run(ctx, &sets[i], 0, 1, what);
        }
    for (int i = 0; i < SETS; i++)
        for (int twice = 0; twice < 2; twice++) {
            char what[64];
            snprintf(what, sizeof what, "6. set %d of %d, call %d", i + 1, SETS, twice + 1);
            run(ctx, &sets[i], 0, 1, what);
        }
    cl_int st;
    cl_command_queue other = clCreateCommandQueue(clgemm_cl_context(ctx), dev->id, 0, &st);
    if (!other) {
        printf("FAIL a second queue: %d\n", st);
        return 1;
    }
    for (int r = 0; r < 2; r++) {
        on_queue = other;
        run(ctx, &sets[0], 0, 1, "7. set 1 on a second queue");
        run(ctx, &sets[0], 0, 1, "7. again there");
        on_queue = NULL;
        run(ctx, &sets[0], 0, 1, "7. back on the first queue");
    }
    clReleaseCommandQueue(other);
    for (int i = 0; i < SETS; i++)
        drop(&sets[i]);
    clgemm_close(ctx);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
