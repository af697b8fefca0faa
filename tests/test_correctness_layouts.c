/* test_correctness's layouts mode (usage in test_correctness.c): the general call, pairwise
 * over layouts, transposes, sizes, padding, offsets, batches, C types and epilogues, for every
 * algorithm and element type (each a group, sharded by group); then the swapped forms, step
 * 7's in-place transposed reads (READT=1), step 10's TF32 pre-pass of both operands in one
 * launch and its copy-engine stores (TSTORE=1). */
#include <stdio.h>
#include <string.h>

#include "clgemm.h"
#include "test_correctness.h"

/* layouts mode: two awkward sizes (odd everywhere, no dimension a multiple of a tile). */
static const gemm_shape layout_sizes[] = { { 37, 29, 19 }, { 70, 45, 33 } };

/* layouts mode: the swapped problem (SWAP=1: C^T = op(B)^T op(A)^T, C stored transposed by
 * the kernel, or by the split's reduction) on a SIMT step, a split one and step 10, each a
 * group of its own (every epilogue and C type).  Step 10's narrow wgmmas (N < 64) need B
 * K-major, which the skinny forms give them. */
static const char *const layout_swapped_forms[] = {
    "warp_tiled:SWAP=1", "block_tiled_vectorized:SWAP=1,SPLITK=2",
    "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2,SWAP=1",
};

/* layouts mode: step 7 reading a transposed A or B where it lies (GEMM_TRANS_A/B).  Its
 * default, READT=0, packs a transposed operand first, so no other group runs that code. */
static const char *const layout_read_t_form = "warp_tiled:READT=1";

/* layouts mode: step 10 storing C by the copy engine (TSTORE=1), which it does only where C
 * lies on 16 bytes and is not read: one form per element type, one with PERSIST. */
static const char *const layout_tstore_forms[] = {
    "wgmma_tma:BM=128,BN=128,WGN=64,BK=16,STAGES=2,PERSIST=1,TSTORE=1",
    "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2,PACKA=3,TSTORE=1",
};

/* The eight cases of the layouts mode for one algorithm and element type (dtype: CLGEMM_F32,
 * or CLGEMM_F16 standing for both 16-bit types), or the six with a transpose
 * (transposed_only: for a form that differs from its step only there).  Case (t, l) has transposes t and layout l;
 * with a = t & 1 and b = t >> 1 the size is l ^ a, the padding l ^ b and the batch l ^ a ^ b,
 * which makes every pair of values of any two choices occur at least once.  With i = 2t + l
 * and g the group (the how-manieth algorithm and element type), the epilogue is (i + g) % 6
 * and C's type (i + (i + g) / 6 + g) % 3: all six and all three in every group, and with 11
 * or more consecutive g every pair with the others too (checked by enumeration; there are 13:
 * tensor_core takes mma's g, so that where it runs mma, as on PoCL, the two share their
 * builds instead of compiling the slowest kernels of the suite twice). */
static void run_layout_cases(session *s, const char *algo, clgemm_dtype dtype, int group,
                             bool transposed_only)
{
    static const char *const trans[] = { "NN", "NT", "TN", "TT" };
    for (int t = transposed_only ? 1 : 0; t < 4; t++)
        for (int l = 0; l < 2; l++) {
            const int a = t & 1, b = t >> 1;
            const bool padded = l ^ b, batched = l ^ a ^ b;
            run_request req = run_request_defaults();
            req.shape = layout_sizes[l ^ a];
            req.layout = l ? CLGEMM_COL_MAJOR : CLGEMM_ROW_MAJOR;
            req.op_a = (t & 2) ? CLGEMM_OP_T : CLGEMM_OP_N;
            req.op_b = (t & 1) ? CLGEMM_OP_T : CLGEMM_OP_N;
            req.ld_pad = padded ? 3 : 0;
            req.offset = padded ? 5 : 3;
            req.batch = batched ? 3 : 1;
            /* C read (beta != 0) with tight lines, C full of NaN and never read with padded */
            req.alpha = padded ? 1.0f : -1.5f;
            req.beta = padded ? 0.0f : 0.5f;
            req.dtype = dtype == CLGEMM_F32 ? CLGEMM_F32 : (t + l) % 2 ? CLGEMM_BF16 : CLGEMM_F16;
            req.seed = (uint64_t)(100 * t + 10 * l + dtype);
            const int i = 2 * t + l;
            if (group >= 0) {
                req.epilogue = (clgemm_epilogue)((i + group) % 6);
                req.c_type = (clgemm_dtype)((i + (i + group) / 6 + group) % 3);
            }
            char what[96];
            snprintf(what, sizeof what, "%s %s, ld+%d, off %d, batch %d, beta=%g, C %s, %s",
                     l ? "col" : "row", trans[t], req.ld_pad, req.offset, req.batch, req.beta,
                     clgemm_dtype_name(req.c_type), clgemm_epilogue_name(req.epilogue));
            run_request_case(s, algo, req, what);
        }
}

/* The cases of a TSTORE form (layout_tstore_forms, the f-th): rows of 8 values (16 or 32
 * bytes) at an offset of 8, and C's rows ending on 16 bytes (N = 24 row-major, M = 72
 * column-major), so that the copy engine can store C, in every epilogue, each C type twice,
 * both layouts, every transpose, a batch of 3 in half; the last case reads C (beta 0.5),
 * where the kernel's own stores run instead. */
static void run_tstore_cases(session *s, const char *form, clgemm_dtype dtype, int f)
{
    static const char *const trans[] = { "NN", "NT", "TN", "TT" };
    static const gemm_shape sizes[] = { { 37, 24, 19 }, { 72, 45, 33 } };
    for (int i = 0; i < 6; i++) {
        run_request req = run_request_defaults();
        req.shape = sizes[i % 2];
        req.layout = i % 2 ? CLGEMM_COL_MAJOR : CLGEMM_ROW_MAJOR;
        const int t = (i + f) % 4;
        req.op_a = (t & 2) ? CLGEMM_OP_T : CLGEMM_OP_N;
        req.op_b = (t & 1) ? CLGEMM_OP_T : CLGEMM_OP_N;
        req.ld_pad = -1;
        req.ld_multiple = 8;
        req.offset = 8;
        req.batch = (i + f) % 2 ? 3 : 1;
        req.alpha = -1.5f;
        req.beta = i == 5 ? 0.5f : 0.0f;
        req.dtype = dtype == CLGEMM_F32 ? CLGEMM_F32 : i % 2 ? CLGEMM_BF16 : CLGEMM_F16;
        req.seed = (uint64_t)(500 + 10 * f + i);
        req.epilogue = (clgemm_epilogue)i;
        req.c_type = (clgemm_dtype)((i + f) % 3);
        char what[96];
        snprintf(what, sizeof what, "%s %s, rows of 8, off 8, batch %d, beta=%g, C %s, %s",
                 i % 2 ? "col" : "row", trans[t], req.batch, req.beta,
                 clgemm_dtype_name(req.c_type), clgemm_epilogue_name(req.epilogue));
        run_request_case(s, form, req, what);
    }
}

/* Step 10's TF32 pre-pass of both operands in one launch (wgmma_tma_pack_two): tight rows,
 * which the copy engine cannot read, at a size where the two passes' groups differ in count
 * and shape (N N: A's rounding copy 2 x 2 groups, B's transpose 3 x 4; T N: A transposed too),
 * plainly and with tf32x3 splitting B in local memory (PACKB=2: B's pass copies exactly). */
static void run_pack_two_cases(session *s)
{
    static const char *const forms[] = {
        "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2",
        "wgmma_tma:BM=64,BN=64,WGN=64,BK=16,STAGES=2,SPLIT=1,PACKB=2",
    };
    for (int f = 0; f < 2; f++)
        for (int t = 0; t < 2; t++) {
            run_request req = run_request_defaults();
            req.shape = (gemm_shape){ 9, 130, 200 };
            req.op_a = t ? CLGEMM_OP_T : CLGEMM_OP_N;
            req.ld_pad = 0;
            req.offset = 3;
            req.alpha = -1.5f;
            req.beta = 0.5f;
            req.seed = (uint64_t)(600 + 10 * f + t);
            run_request_case(s, forms[f], req, t ? "row TN, ld+0, off 3, beta=0.5"
                                                  : "row NN, ld+0, off 3, beta=0.5");
        }
}

void layouts_cases(session *s, const char *const *algos, size_t nalgos, int shard, int shards,
                   bool every)
{
    /* the group of each algorithm and element type (CLBlast none), mma's kept */
    int group = 0, mma_group[2] = { -1, -1 };
    for (size_t a = 0; a < nalgos; a++) {
        const bool baseline = strcmp(algos[a], BASELINE_NAME) == 0;
        const bool mma = strcmp(algos[a], "mma") == 0;
        const bool shares = strcmp(algos[a], "tensor_core") == 0;
        for (int h = 0; h < 2; h++) {
            if (!(h ? !baseline && clgemm_algorithm_has_dtype(algos[a], CLGEMM_F16)
                    : baseline || clgemm_algorithm_has_dtype(algos[a], CLGEMM_F32)))
                continue;
            int g = baseline ? -1 : shares && mma_group[h] >= 0 ? mma_group[h] : group++;
            if (mma)
                mma_group[h] = g;
            if ((g < 0 ? 0 : g % shards) == shard - 1)
                run_layout_cases(s, algos[a], h ? CLGEMM_F16 : CLGEMM_F32, g, false);
        }
        if (a + 1 == nalgos && every) { /* after them all: the swapped forms */
            for (size_t f = 0; f < sizeof layout_swapped_forms / sizeof *layout_swapped_forms;
                 f++)
                for (int h = 0; h < 2; h++) {
                    const clgemm_dtype dt = h ? CLGEMM_F16 : CLGEMM_F32;
                    if (clgemm_algorithm_has_dtype(layout_swapped_forms[f], dt) &&
                        group++ % shards == shard - 1)
                        run_layout_cases(s, layout_swapped_forms[f], dt, group - 1, false);
                }
            /* Step 7's in-place reads in shard 1 whatever the sharding, as CLBlast, and
             * step 10's copy-engine stores (twelve builds) in shard 2 of a split run, so
             * that the two do not load the same shard; an unsharded run has both. */
            const int g = group++;
            if (shard == 1) {
                run_layout_cases(s, layout_read_t_form, CLGEMM_F32, g, true);
                run_pack_two_cases(s);
            }
            if (shard == (shards > 1 ? 2 : 1))
                for (int f = 0; f < 2; f++)
                    run_tstore_cases(s, layout_tstore_forms[f], f ? CLGEMM_F32 : CLGEMM_F16,
                                     f);
        }
    }
}
