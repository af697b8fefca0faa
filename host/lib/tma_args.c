/* Step 10's kernel arguments (tma_args.h). */
#include "tma_args.h"

#include <string.h>

#include "prepass_tf32.h"
#include "tensor_map.h"

/* The tensor maps of A and B for cl/10_wgmma_tma.cl, as the operands are stored, a kernel
 * argument by value; their addresses are placeholders that the kernel's producer replaces
 * (TMA_MAPS_PUBLISH: OpenCL does not tell the host a buffer's device address).  A K-major
 * operand (A as M x K, packed B^T, a 16-bit B stored N x K) is read in boxes of BM (BN) rows
 * x BK values swizzled at the row's bytes; an MN-major one (16-bit B as K x N, A stored K x M)
 * in boxes of BK rows x 128 bytes.  A batched build reads 3-D maps, the problem as the third
 * coordinate: a strided operand's map holds the launch's `count` problems, a shared one's
 * (stride 0) its one matrix.  The emulation reads A and B directly and gets zeros. */
static tensor_map_shape k_major(int elem, uint64_t rows, uint64_t cols, int ld, int box_rows,
                                int bk)
{
    return (tensor_map_shape){ elem, rows, cols, (uint64_t)ld, (uint32_t)box_rows,
                               (uint32_t)bk, elem * bk, 0, 0 };
}

static tensor_map_shape mn_major(int elem, int K, int cols, int ld, int bk)
{
    return (tensor_map_shape){ elem, (uint64_t)K, (uint64_t)cols, (uint64_t)ld, (uint32_t)bk,
                               (uint32_t)(128 / elem), 128, 0, 0 };
}

/* A's or B's map as a batched build reads it (see tma_maps). */
static tensor_map_shape batch_of(tensor_map_shape m, const gemm_plan *plan, int count,
                                 int stride)
{
    if (plan->batched) {
        m.depth = stride ? (uint64_t)count : 1;
        m.stride = stride ? (uint64_t)stride : m.rows * m.ld;
    }
    return m;
}

/* C's map for TSTORE (cl/mma/tma_store_tensor.h; on by default for a 16-bit C, so the host
 * maps C whatever the parameters say, and a kernel built without TSTORE ignores it): boxes of
 * 64 rows x 128 bytes, 128-byte swizzle.  Whether the copy engine can store this call's C:
 * only where C is not read (beta 0) and its corner, rows and problems lie on 16 bytes
 * (tensor_map_check_shape), and its rows end on 16 bytes too: on the H100 the engine wrote a
 * row's last 16 bytes whole, past N into the padding (tests/test_layouts).  A batch whose
 * problems share one C (stride 0) is left to the kernel's own stores.  The emulation makes
 * the same choice, so that the tests run both stores. */
static bool c_map_shape(const gemm_plan *plan, gemm_shape s, gemm_operand C, float beta,
                        const gemm_batch *batch, tensor_map_shape *out)
{
    const int elem = plan->build.c_type != 0 ? 2 : 4;
    if (beta != 0.0f || s.K < 1 ||
        ((size_t)C.off * (size_t)elem) % 16 != 0 || ((size_t)s.N * (size_t)elem) % 16 != 0 ||
        (batch->count > 1 && batch->stride[2] == 0))
        return false;
    const tensor_map_shape c = { elem, (uint64_t)s.M, (uint64_t)s.N, (uint64_t)C.ld, 64,
                                 (uint32_t)(128 / elem), 128, 0, 0 };
    *out = batch_of(c, plan, batch->count, batch->stride[2]);
    errbuf ignored = { "" };
    return tensor_map_check_shape(out, &ignored) == 0;
}

/* maps[3]: A's, B's and (where *cmap) C's, passed to the kernel by value. */
static int tma_maps(const gemm_plan *plan, gemm_shape s, gemm_operand A, gemm_operand B,
                    gemm_operand C, float beta, const gemm_batch *batch, cl_int *cmap,
                    tensor_map maps[3], errbuf *e)
{
    memset(maps, 0, 3 * sizeof *maps);
    bool real = !plan->tma_emulated && s.K > 0;
    tensor_map_shape c3;
    *cmap = c_map_shape(plan, s, C, beta, batch, &c3);
    if (real) {
        const int elem = plan->dtype != 0 ? 2 : 4;
        /* tf32x3 (split): packed A and B^T hold the residuals below the values. */
        const uint64_t halves_a = (uint64_t)tf32_halves(plan, 0),
                       halves_b = (uint64_t)tf32_halves(plan, 1);
        const bool packed = plan->variant->prepass == PREPASS_TF32_PACK;
        const tensor_map_shape a =
            (!packed || plan->a_regs_t) && plan->build.trans_a
                ? mn_major(elem, s.K, s.M, A.ld, plan->bk)
                : k_major(elem, halves_a * (uint64_t)s.M, (uint64_t)s.K, A.ld, plan->bm,
                          plan->bk);
        /* A problem narrower than the tile copies B in boxes of N rows rounded up to 8, as
         * the kernel expects (b_box_rows, cl/10_wgmma_tma.cl): no rows past the matrix.  A
         * tf32x3 build narrows no box (its B_NARROWS), whether B's residuals are copied or
         * made in the slot. */
        const int b_rows = !plan->split && s.N > 0 && s.N < plan->bn
                               ? (s.N + 7) / 8 * 8
                               : plan->bn;
        const tensor_map_shape b =
            packed || plan->build.trans_b ? k_major(elem, halves_b * (uint64_t)s.N,
                                                    (uint64_t)s.K, B.ld, b_rows, plan->bk)
                                          : mn_major(elem, s.K, s.N, B.ld, plan->bk);
        const tensor_map_shape a3 = batch_of(a, plan, batch->count, batch->stride[0]);
        const tensor_map_shape b3 = batch_of(b, plan, batch->count, batch->stride[1]);
        if (tensor_map_encode(&maps[0], TENSOR_MAP_PLACEHOLDER_ADDRESS, &a3, e) != 0 ||
            tensor_map_encode(&maps[1], TENSOR_MAP_PLACEHOLDER_ADDRESS, &b3, e) != 0)
            return -1;
        errbuf ignored = { "" }; /* the kernel's own stores run instead */
        if (*cmap &&
            tensor_map_encode(&maps[2], TENSOR_MAP_PLACEHOLDER_ADDRESS, &c3, &ignored) != 0)
            *cmap = 0;
    }
    return 0;
}

int tma_set_args(const gemm_plan *plan, cl_command_queue q, cl_kernel k, cl_uint *i,
                 gemm_shape s, gemm_operand A, gemm_operand B, gemm_operand C, float beta,
                 const gemm_batch *kb, int count, const gemm_ksplit *ks, tma_call *call,
                 errbuf *e)
{
    call->keep = -1;
    call->kept = false;
    cl_int cmap = 0;
    tensor_map maps[3];
    if (tma_maps(plan, s, A, B, C, beta, kb, &cmap, maps, e) != 0)
        return -1;
    /* By value: no buffer to create and upload per call (cl/mma/tma.h, tma_maps_arg). */
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof maps, maps));
    if (gemm_set_split_args(k, i, s, ks, e) != 0)
        return -1;
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof(int), &count));
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof(cl_int), &cmap));
    /* Room for the groups' own copies of the maps (cl/mma/tma.h: map_slot_count slots, each
     * the size of the maps passed above), which each group writes whole before reading: no
     * fill; then the keep slots (tma_map_cache.h).  The emulation reads no map (NULL). */
    const cl_int map_slot_count = 256;
    cl_mem slots = NULL;
    if (!plan->tma_emulated &&
        !(slots = gemm_scratch_get(plan, q, SCRATCH_TMA_MAPS,
                                   (size_t)(map_slot_count + TMA_MAP_KEEP_SLOTS) * sizeof maps,
                                   e)))
        return -1;
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof(cl_int), &map_slot_count));
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof(cl_mem), slots ? &slots : NULL));
    /* The maps an earlier call on this queue kept, or the keep slot this one fills. */
    if (slots && s.K > 0) {
        tma_map_key *const key = &call->key;
        memcpy(key->maps, maps, sizeof maps);
        key->buf[0] = A.buf, key->buf[1] = B.buf, key->buf[2] = C.buf;
        key->off[0] = (size_t)A.off, key->off[1] = (size_t)B.off, key->off[2] = (size_t)C.off;
        key->cmap = cmap;
        errbuf unwatched = { "" }; /* then this call publishes, as every call did */
        call->keep = tma_map_cache_find(gemm_scratch_kept_maps(plan), key, &call->kept,
                                        &unwatched);
    }
    const cl_int keep = call->keep, kept = call->kept;
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof(cl_int), &keep));
    CL_TRY(e, clSetKernelArg(k, (*i)++, sizeof(cl_int), &kept));
    return 0;
fail:
    return -1;
}

void tma_call_enqueued(const gemm_plan *plan, const tma_call *call)
{
    if (call->keep >= 0 && !call->kept)
        tma_map_cache_written(gemm_scratch_kept_maps(plan), call->keep, &call->key);
}
