/* The shape rule (host/lib/shape_rule.h) on strings alone: parsing, which class a call falls
 * in, and the split count; plus the rules shipped in tuning/ (each names a step that exists
 * and takes its element type, with parameters that step reads). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernel_sources.h"
#include "gemm.h"
#include "registry.h"
#include "shape_rule.h"
#include "tuning.h"
#include "expect.h"

static const char *const doc =
    "{\"format\": \"clgemm-tuning-1\", \"entries\": [], \"rules\": [\n"
    " {\"device\": \"GPU X\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"NT\",\n"
    "  \"m_max\": 1, \"algorithm\": \"skinny\", \"params\": \"BM=1\"},\n"
    " {\"device\": \"GPU X\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"NT\",\n"
    "  \"m_max\": 16, \"algorithm\": \"skinny\", \"params\": \"BM=16\", \"split_per_cu\": 2,\n"
    "  \"split_kmin\": 256},\n"
    " {\"device\": \"GPU X\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 128, \"algorithm\": \"warp_tiled\", \"params\": \"\", \"split_per_cu\": 1},\n"
    " {\"device\": \"*\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 4, \"algorithm\": \"skinny\", \"params\": \"BM=4\"},\n"
    " {\"device\": \"GPU X\", \"purpose\": \"tensor_core\", \"dtype\": \"bf16\", \"trans\": \"NN\",\n"
    "  \"m_max\": 16, \"algorithm\": \"mma\", \"params\": \"\"},\n"
    " {\"device\": \"GPU X\", \"purpose\": \"auto\", \"dtype\": \"f99\", \"trans\": \"NT\",\n"
    "  \"m_max\": 1, \"algorithm\": \"skinny\", \"params\": \"\"},\n"
    " {\"device\": \"GPU X\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"XX\",\n"
    "  \"m_max\": 1, \"algorithm\": \"skinny\", \"params\": \"\"},\n"
    " {\"device\": \"GPU X\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"NN\",\n"
    "  \"m_max\": 1.5, \"algorithm\": \"skinny\", \"params\": \"\"},\n"
    " {\"device\": \"GPU X\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"NN\",\n"
    "  \"m_max\": 8, \"algorithm\": \"skinny\", \"params\": \"\", \"split_per_cu\": -1},\n"
    " {\"device\": \"GPU X\", \"purpose\": \"tensor_core\", \"dtype\": \"bf16\", \"trans\": \"any\",\n"
    "  \"m_max\": 512, \"algorithm\": \"wgmma_tma\", \"params\": \"BN=128\", \"batch\": true},\n"
    " {\"device\": \"GPU X\", \"purpose\": \"tensor_core\", \"dtype\": \"bf16\", \"trans\": \"any\",\n"
    "  \"m_max\": 512, \"algorithm\": \"wgmma_tma\", \"params\": \"\", \"batch\": 1},\n"
    " {\"device\": \"GPU Z\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 128, \"algorithm\": \"warp_tiled\", \"params\": \"\", \"split_slice_k\": 48,\n"
    "  \"split_kmin\": 256},\n"
    " {\"device\": \"GPU Z\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 16, \"algorithm\": \"warp_tiled\", \"params\": \"\", \"split_slice_k\": -4},\n"
    " {\"device\": \"GPU V\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 512, \"algorithm\": \"warp_tiled\", \"params\": \"\", \"split_slice_k\": 80,\n"
    "  \"split_partial_k\": 72, \"split_kmin\": 128},\n"
    " {\"device\": \"GPU V\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 256, \"algorithm\": \"warp_tiled\", \"params\": \"\", \"split_slice_k\": 80,\n"
    "  \"split_partial_k\": -1},\n"
    " {\"device\": \"GPU W\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 512, \"algorithm\": \"warp_tiled\", \"params\": \"BK=8\", \"batch\": true},\n"
    " {\"device\": \"GPU W\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"trans_a\": \"T\", \"m_max\": 512, \"algorithm\": \"warp_tiled\", \"params\": \"BK=16\",\n"
    "  \"batch\": true},\n"
    " {\"device\": \"GPU W\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"trans_a\": \"X\", \"m_max\": 64, \"algorithm\": \"warp_tiled\", \"params\": \"\",\n"
    "  \"batch\": true},\n"
    " {\"device\": \"GPU U\", \"purpose\": \"tensor_core\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 512, \"algorithm\": \"wgmma_tma\", \"params\": \"BN=128\", \"split_slice_k\": 80,\n"
    "  \"split_partial_k\": 72, \"split_kmin\": 128, \"wide_params\": \"SWAP=1\", \"wide_round\": 1.25},\n"
    " {\"device\": \"GPU U\", \"purpose\": \"tensor_core\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 256, \"algorithm\": \"wgmma_tma\", \"params\": \"\", \"wide_params\": \"SWAP=1\"},\n"
    " {\"device\": \"GPU U\", \"purpose\": \"tensor_core\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 200, \"algorithm\": \"wgmma_tma\", \"params\": \"\", \"wide_split\": true},\n"
    " {\"device\": \"GPU V\", \"purpose\": \"tensor_core\", \"dtype\": \"bf16\", \"trans\": \"NT\",\n"
    "  \"m_max\": 16, \"algorithm\": \"wgmma_tma\", \"params\": \"STAGES=16\",\n"
    "  \"wide_params\": \"STAGES=8\", \"wide_round\": 0.97, \"wide_min_per_cu\": 0.55},\n"
    " {\"device\": \"GPU V\", \"purpose\": \"tensor_core\", \"dtype\": \"bf16\", \"trans\": \"NT\",\n"
    "  \"m_max\": 32, \"algorithm\": \"wgmma_tma\", \"params\": \"\", \"wide_min_per_cu\": 0.5},\n"
    " {\"device\": \"GPU V\", \"purpose\": \"tensor_core\", \"dtype\": \"bf16\", \"trans\": \"NT\",\n"
    "  \"m_max\": 64, \"algorithm\": \"wgmma_tma\", \"params\": \"\", \"wide_params\": \"STAGES=8\",\n"
    "  \"wide_round\": 0.97, \"wide_min_per_cu\": -1},\n"
    " 7]}";

static void test_parse_and_lookup(void)
{
    tuning_db db = { 0 };
    EXPECT(tuning_parse(&db, doc, strlen(doc), 0) == 0); /* no entries ... */
    EXPECT(db.rules.count == 12);                        /* ... twelve good rules of 24 */
    const shape_rules *r = &db.rules;
    const shape_rule *x = shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 1, 4096);
    EXPECT(x && x->m_max == 1); /* the tightest class */
    x = shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 2, 4096);
    EXPECT(x && x->m_max == 16); /* the device's own before any device's */
    x = shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, false, false, 2, 4096);
    EXPECT(x && x->m_max == 128); /* NN: the rule for any layout */
    x = shape_rule_lookup(r, "GPU Y", "", "auto", CLGEMM_F32, false, false, false, 3, 4096);
    EXPECT(x && x->m_max == 4 && strcmp(x->device, "*") == 0);
    EXPECT(!shape_rule_lookup(r, "GPU Y", "", "auto", CLGEMM_F32, false, false, false, 5, 4096));
    EXPECT(!shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 129, 4096)); /* default */
    /* not skinny: N below 4 m_max (100^3 keeps its tuned size; 16 x 63 is no M <= 16 class) */
    EXPECT(!shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, false, false, 100, 100));
    x = shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 16, 63);
    EXPECT(!x);
    x = shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 2, 64);
    EXPECT(x && x->m_max == 16);
    EXPECT(!shape_rule_lookup(r, "GPU X", "", "tensor_core", CLGEMM_BF16, false, true, false, 8, 4096));
    x = shape_rule_lookup(r, "GPU X", "", "tensor_core", CLGEMM_BF16, false, false, false, 8, 4096);
    EXPECT(x && strcmp(x->algorithm, "mma") == 0);
    EXPECT(!shape_rule_lookup(r, "GPU X", "", "tensor_core", CLGEMM_F16, false, false, false, 8, 4096));
    /* The ranked order, the next looser class after each: M = 1 NT on GPU X takes M <= 1, then
     * M <= 16, then any-device M <= 4 is last (another device's), M <= 128 before it. */
    const long order[] = { 1, 16, 128, 4 };
    for (int k = 0; k < 4; k++) {
        x = shape_rule_lookup_ranked(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 1, 4096, k);
        EXPECT(x && x->m_max == order[k]);
    }
    EXPECT(!shape_rule_lookup_ranked(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 1, 4096, 4));
    EXPECT(shape_rule_lookup_ranked(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 2, 4096, 0) ==
           shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 2, 4096));

    /* The split: blocks below split_per_cu x CUs, slices at least split_kmin long. */
    x = shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 16, 4096);
    EXPECT(shape_rule_split(x, 132, 264, 4096, false) == 1); /* enough blocks already */
    EXPECT(shape_rule_split(x, 132, 64, 4096, false) == 4);  /* 264 / 64 = 4.1 to nearest */
    EXPECT(shape_rule_split(x, 132, 48, 4800, false) == 6);  /* 5.5 to nearest: 6 slices of 800 */
    EXPECT(shape_rule_split(x, 132, 48, 4096, false) == 4);  /* 6, 5, 7 leave a shorter slice */
    EXPECT(shape_rule_split(x, 132, 8, 4096, false) == 16);  /* 33, but K / 256 = 16 */
    EXPECT(shape_rule_split(x, 132, 8, 300, false) == 1);    /* one slice of 256 at most */
    x = shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, true, false, 1, 4096);
    EXPECT(shape_rule_split(x, 132, 1, 1 << 20, false) == 1); /* no split asked for */
    /* a batch rule serves batches alone, of any N, and a batch takes no other rule */
    x = shape_rule_lookup(r, "GPU X", "", "tensor_core", CLGEMM_BF16, false, false, true, 128, 128);
    EXPECT(x && x->batch && x->m_max == 512 && strcmp(x->params, "BN=128") == 0);
    EXPECT(!shape_rule_lookup(r, "GPU X", "", "tensor_core", CLGEMM_BF16, false, false, true, 513, 128));
    EXPECT(!shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, true, true, 1, 4096));
    x = shape_rule_lookup(r, "GPU X", "", "tensor_core", CLGEMM_BF16, false, false, false, 8, 4096);
    EXPECT(x && !x->batch && strcmp(x->algorithm, "mma") == 0);
    x = shape_rule_lookup(r, "GPU X", "", "auto", CLGEMM_F32, false, false, false, 100, 4096);
    EXPECT(shape_rule_split(x, 132, 1, 1 << 20, false) == 32); /* no kmin: at most 32 */
    /* a rule of at most one wave (split_per_cu 1) never starts a second: 132 / 48 = 2.75
     * to nearest is 3, but 3 x 48 blocks > 132 */
    EXPECT(shape_rule_split(x, 132, 48, 4096, false) == 2);
    EXPECT(shape_rule_split(x, 132, 48, 4096, true) == 2);
    /* 132 / 40 = 3.3: 3 slices; where the last may be shorter (one launch, step 10) 3 stays,
     * else the nearest even cut of 4000 is 2 */
    EXPECT(shape_rule_split(x, 132, 40, 4000, true) == 3);
    EXPECT(shape_rule_split(x, 132, 40, 4000, false) == 2);
    /* split_slice_k 48: the fewest rounds of blocks per CU for the work, each slice costing
     * 48 values of K (probe35's ten shapes on the H100 chose as this does). */
    x = shape_rule_lookup(r, "GPU Z", "", "auto", CLGEMM_F32, false, true, false, 16, 4096);
    EXPECT(x && x->m_max == 128 && x->split_slice_k == 48); /* the malformed M <= 16 skipped */
    EXPECT(shape_rule_split(x, 132, 32, 4096, false) == 4);   /* 128 blocks: one round */
    EXPECT(shape_rule_split(x, 132, 48, 4096, false) == 8);   /* 384: 3 rounds of 1/8 */
    EXPECT(shape_rule_split(x, 132, 40, 4096, false) == 16);  /* 640: 5 rounds of 1/16 */
    EXPECT(shape_rule_split(x, 132, 224, 4096, false) == 4);  /* 7 rounds of 1/4, not 2 of 1 */
    EXPECT(shape_rule_split(x, 132, 64, 8192, false) == 2);   /* 128 blocks: one round */
    EXPECT(shape_rule_split(x, 132, 16, 8192, false) == 8);   /* 128 blocks: one round */
    EXPECT(shape_rule_split(x, 132, 264, 4096, false) == 1);  /* 2 whole rounds already */
    /* No count up to K / 256 cuts 1000 or 777 evenly: the shorter last slice's second launch
     * costs SPLIT_UNEVEN_ROUNDS, and 3 slices still beat one round of the whole K (probe83).
     * Where an even cut exists the cost keeps it: 3000 in 5, not 11 uneven ones. */
    EXPECT(shape_rule_split(x, 132, 32, 1000, false) == 3);
    EXPECT(shape_rule_split(x, 132, 24, 777, false) == 3);
    EXPECT(shape_rule_split(x, 132, 24, 3000, false) == 5);
    EXPECT(shape_rule_split(x, 132, 32, 1000, true) == 3);    /* one launch takes it; K / 256 */
    /* split_partial_k: moving the partial products costs with the blocks, so a large M x N
     * stays whole where the rounds alone would split it.  Each count below is the fastest of
     * those measured on the H100 for step 7 at that shape (probes 169-171); the rounds alone
     * (slice cost 80) would take 4, 4 and 2 slices in the first three. */
    x = shape_rule_lookup(r, "GPU V", "", "auto", CLGEMM_F32, false, true, false, 300, 4096);
    EXPECT(x && x->m_max == 512 && x->split_partial_k == 72); /* the malformed M <= 256 skipped */
    EXPECT(shape_rule_split(x, 132, 224, 4096, false) == 1);  /* 128 x 28672 x 4096 */
    EXPECT(shape_rule_split(x, 132, 672, 4096, false) == 1);  /* 384 x 28672 x 4096 */
    EXPECT(shape_rule_split(x, 132, 72, 1000, false) == 1);   /* 300 x 3000 x 1000 */
    EXPECT(shape_rule_split(x, 132, 64, 4096, false) == 2);   /* 256 x 4096 x 4096 */
    EXPECT(shape_rule_split(x, 132, 128, 4096, false) == 1);  /* 512 x 4096 x 4096 */
    EXPECT(shape_rule_split(x, 132, 96, 4096, false) == 4);   /* 200 x 6144 x 4096 */
    EXPECT(shape_rule_split(x, 132, 64, 14336, false) == 2);  /* 256 x 4096 x 14336 */
    EXPECT(shape_rule_split(x, 132, 160, 5120, false) == 4);  /* 512 x 5120 x 5120 */
    EXPECT(shape_rule_split(x, 132, 48, 4096, false) == 8);   /* 128 x 6144 x 4096 */
    EXPECT(shape_rule_split(x, 132, 32, 4096, false) == 4);   /* 128 x 4096 x 4096 */
    /* The wide form (shape_rule_wide): unsplit rounds of the wider tile, each 1.25 of the
     * rule's, against the rule's tile at its split; the H100's TF32 N T at M <= 512 in
     * probe181 ran the faster of the two at each shape below (the malformed M <= 256 rule,
     * wide_params without wide_round, was skipped). */
    x = shape_rule_lookup(r, "GPU U", "", "tensor_core", CLGEMM_F32, false, true, false, 256, 4096);
    EXPECT(x && x->m_max == 512 && strcmp(x->wide_params, "SWAP=1") == 0 && x->wide_round == 1.25);
    double own = 0, wide = 0;
    EXPECT(shape_rule_split(x, 132, 192, 4096, true) == 2);             /* 512 x 6144 x 4096 */
    EXPECT(shape_rule_wide(x, 132, 192, 2, 4096, true, 96, 1, &own, &wide)); /* 0.133 -> 0.097 */
    EXPECT(own > 1.6 && own < 1.8 && wide > 1.25 && wide < 1.3);
    EXPECT(shape_rule_wide(x, 132, 672, 1, 4096, true, 448, 1, NULL, NULL)); /* 384 x 28672 */
    EXPECT(!shape_rule_wide(x, 132, 128, 1, 4096, true, 64, 1, NULL, NULL)); /* 512 x 4096 */
    EXPECT(!shape_rule_wide(x, 132, 120, 1, 5120, true, 80, 1, NULL, NULL)); /* 300 x 5120 */
    EXPECT(!shape_rule_wide(x, 132, 64, 2, 4096, true, 32, 1, NULL, NULL));  /* 256 x 4096 */
    /* A wide form that pays only once the SMs are mostly busy ("wide_min_per_cu"): the same
     * tile with a shallower ring, taken from 0.55 blocks per CU (80 of 132: bf16 16 x 5120),
     * not at 64 (16 x 4096 x 14336 lost 6.5% with it, probe257); malformed: the field without
     * a wide form, or below zero. */
    x = shape_rule_lookup(r, "GPU V", "", "tensor_core", CLGEMM_BF16, false, true, false, 16, 4096);
    EXPECT(x && x->m_max == 16 && x->wide_min_per_cu == 0.55);
    EXPECT(x && shape_rule_wide(x, 132, 96, 1, 4096, true, 96, 1, NULL, NULL));
    EXPECT(x && shape_rule_wide(x, 132, 80, 1, 14336, true, 80, 1, NULL, NULL));
    EXPECT(x && !shape_rule_wide(x, 132, 64, 1, 14336, true, 64, 1, NULL, NULL));
    x = shape_rule_lookup(r, "GPU V", "", "tensor_core", CLGEMM_BF16, false, true, false, 17, 4096);
    EXPECT(!x); /* neither malformed rule was kept */
    x = shape_rule_lookup(r, "GPU Z", "", "auto", CLGEMM_F32, false, true, false, 16, 4096);
    EXPECT(x && !x->wide_params[0] && !shape_rule_wide(x, 132, 672, 1, 4096, true, 1, 1, NULL, NULL));
    /* A's layout, where a rule names it ("trans_a"): a batch with A stored K x M takes the
     * rule for it, one with A as M x K the rule for either; the malformed "X" was skipped. */
    x = shape_rule_lookup(r, "GPU W", "", "auto", CLGEMM_F32, true, true, true, 128, 128);
    EXPECT(x && x->trans_a == 1 && strcmp(x->params, "BK=16") == 0);
    x = shape_rule_lookup(r, "GPU W", "", "auto", CLGEMM_F32, false, true, true, 128, 128);
    EXPECT(x && x->trans_a == -1 && strcmp(x->params, "BK=8") == 0);
    x = shape_rule_lookup_ranked(r, "GPU W", "", "auto", CLGEMM_F32, true, false, true, 128, 128, 1);
    EXPECT(x && x->trans_a == -1); /* the rule for either A comes next */
    /* The tallest batch class, M aside (batch_choice.c takes it for taller problems). */
    EXPECT(shape_rule_batch_m_max(r, "GPU W", "auto", CLGEMM_F32, false, true) == 512);
    EXPECT(!shape_rule_lookup(r, "GPU W", "", "auto", CLGEMM_F32, false, true, true, 513, 128));
    EXPECT(shape_rule_batch_m_max(r, "GPU W", "auto", CLGEMM_BF16, false, true) == 0);
    EXPECT(shape_rule_batch_m_max(r, "GPU X", "auto", CLGEMM_F32, false, true) == 0);
    tuning_free(&db);
    EXPECT(db.rules.count == 0 && db.rules.items == NULL);
}

/* Every shipped rule runs a step that exists, takes its element type and reads its keys. */
static void test_shipped(void)
{
    tuning_db db = { 0 };
    for (const struct embedded_kernel *k = embedded_tuning; k->name; k++)
        EXPECT(tuning_parse(&db, k->source, strlen(k->source), 1) >= 0);
    for (size_t i = 0; i < db.rules.count; i++) {
        const shape_rule *x = &db.rules.items[i];
        const algo_def *a = algo_find(x->algorithm);
        errbuf e = { "" };
        const bool ok = a && a->desc.step > 0 && algo_takes(a, (clgemm_dtype)x->dtype) &&
                        gemm_params_check(a, x->params, &e) == 0 &&
                        gemm_params_check(a, x->wide_params, &e) == 0 &&
                        (strcmp(x->purpose, "auto") != 0 ||
                         strcmp(a->desc.precision, "fp32") == 0);
        if (!ok)
            printf("FAIL shipped rule %zu (%s %s %s): %s\n", i, x->device, x->purpose,
                   x->algorithm, e.msg);
        failures += !ok;
        /* A batch rule for any layout must read every transpose in one launch: step 7 does
         * so only with READT=1 (without it an N T batch ran a launch per problem, each packing
         * B: 82 GFLOP/s on the H100 at 512 x 128^2 x 64). */
        const bool reads_t = !x->batch || x->trans >= 0 ||
                             strcmp(x->algorithm, "warp_tiled") != 0 ||
                             strstr(x->params, "READT=1") != NULL;
        if (!reads_t)
            printf("FAIL shipped batch rule %zu (%s %s %s:%s) packs a transposed problem per "
                   "launch: READT=1\n", i, x->device, x->purpose, x->algorithm, x->params);
        failures += !reads_t;
    }
    printf("%zu shipped rules checked\n", db.rules.count);
    tuning_free(&db);
}

/* The shipped H100 rules at the shapes their notes quote: what a change to tuning/ must keep
 * or say it changes (the device's own probes chose these). */
static void test_shipped_choices(void)
{
    tuning_db db = { 0 };
    for (const struct embedded_kernel *k = embedded_tuning; k->name; k++)
        EXPECT(tuning_parse(&db, k->source, strlen(k->source), 1) >= 0);
    const shape_rules *r = &db.rules;
    const char *h100 = "NVIDIA H100 80GB HBM3";
    /* fp32 N T: swapped from M = 121 (probe181: 128 x 28672 x 4096 0.861 -> 0.757 ms), B^T
     * read in place up to M = 120 (probes 181-182: 112 x 4096 x 4096 0.130 against 0.139
     * swapped, 120 x 4096 x 4096 0.131 against 0.139). */
    const shape_rule *x = shape_rule_lookup(r, h100, "", "auto", CLGEMM_F32, false, true, false,
                                            128, 28672);
    EXPECT(x && strcmp(x->params, "SWAP=1,READT=0") == 0 && x->m_max == 128);
    EXPECT(x && shape_rule_split(x, 132, 224, 4096, false) == 1);
    EXPECT(x && shape_rule_split(x, 132, 48, 4096, false) == 8); /* 128 x 6144 x 4096 */
    x = shape_rule_lookup(r, h100, "", "auto", CLGEMM_F32, false, true, false, 112, 4096);
    EXPECT(x && strcmp(x->params, "READT=1") == 0 && x->m_max == 120);
    x = shape_rule_lookup(r, h100, "", "auto", CLGEMM_F32, false, true, false, 120, 4096);
    EXPECT(x && strcmp(x->params, "READT=1") == 0 && x->m_max == 120);
    x = shape_rule_lookup(r, h100, "", "auto", CLGEMM_F32, false, false, false, 128, 4096);
    EXPECT(x && strcmp(x->params, "READT=1") == 0 && x->trans == -1); /* N N as before */
    /* TF32 N N at 128 < M <= 512 splits as N T does (probe181): 2 slices at 256 x 4096 x
     * 4096 (64 blocks) and 512 x 6144 x 4096 (192), none at 512 x 4096 x 4096 (128). */
    x = shape_rule_lookup(r, h100, "", "tensor_core", CLGEMM_F32, false, false, false, 256, 4096);
    EXPECT(x && x->m_max == 512 && x->trans == 0);
    EXPECT(x && shape_rule_split(x, 132, 64, 4096, false) == 2);
    EXPECT(x && shape_rule_split(x, 132, 192, 4096, false) == 2);
    EXPECT(x && shape_rule_split(x, 132, 128, 4096, false) == 1);
    EXPECT(x && shape_rule_split(x, 132, 672, 4096, false) == 1); /* 384 x 28672 x 4096 */
    /* N T: the wide form at 512 x 6144 x 4096 (96 blocks against 192 in 2 slices), not at
     * 512 x 4096 x 4096 (64 against 128 unsplit). */
    x = shape_rule_lookup(r, h100, "", "tensor_core", CLGEMM_F32, false, true, false, 512, 6144);
    EXPECT(x && x->trans == -1 && x->wide_round > 1 && strstr(x->wide_params, "PACKA=3"));
    EXPECT(x && shape_rule_wide(x, 132, 192, 2, 4096, true, 96, 1, NULL, NULL));
    EXPECT(x && !shape_rule_wide(x, 132, 128, 1, 4096, true, 64, 1, NULL, NULL));
    /* N N the same (probe182: 448 x 11008 x 4096 0.230 -> 0.187 ms with 172 wide blocks). */
    x = shape_rule_lookup(r, h100, "", "tensor_core", CLGEMM_F32, false, false, false, 448, 11008);
    EXPECT(x && x->trans == 0 && shape_rule_wide(x, 132, 344, 1, 4096, true, 172, 1, NULL, NULL));
    EXPECT(x && !shape_rule_wide(x, 132, 120, 1, 5120, true, 80, 1, NULL, NULL));
    /* TF32 at M <= 128, B stored N x K (probes 186-187): 64-row blocks in 2 slices at N =
     * 4096 (0.0376 ms; the 128-row wide form in 3 slices ties in the model and ran 0.0438),
     * the wide form split in 2 at N = 6144 (0.0543 against 0.0561 unsplit 64-row blocks) and
     * unsplit at N = 28672 and 11008, where 64-row blocks need more rounds. */
    x = shape_rule_lookup(r, h100, "", "tensor_core", CLGEMM_F32, false, true, false, 128, 4096);
    EXPECT(x && x->trans == 1 && strstr(x->params, "BM=64") && strstr(x->wide_params, "BM=128") &&
           x->wide_split);
    EXPECT(x && shape_rule_split(x, 132, 64, 4096, true) == 2);
    EXPECT(x && shape_rule_wide_split(x, 132, 32, 4096, true) == 3);
    EXPECT(x && !shape_rule_wide(x, 132, 64, 2, 4096, true, 32, 3, NULL, NULL));
    EXPECT(x && shape_rule_wide_split(x, 132, 48, 4096, true) == 2);
    EXPECT(x && shape_rule_wide(x, 132, 96, 1, 4096, true, 48, 2, NULL, NULL)); /* N = 6144 */
    EXPECT(x && shape_rule_split(x, 132, 448, 4096, true) == 1);
    EXPECT(x && shape_rule_wide(x, 132, 448, 1, 4096, true, 224, 1, NULL, NULL));
    EXPECT(x && shape_rule_wide(x, 132, 172, 1, 4096, true, 86, 1, NULL, NULL));
    x = shape_rule_lookup(r, h100, "", "tensor_core", CLGEMM_F32, false, false, false, 128, 4096);
    EXPECT(x && x->trans == -1 && strstr(x->params, "BM=128")); /* N N as before */
    /* 16 < M <= 64 (probes 195-197): tiles as wide as the class, where the M <= 128 rule's
     * 128 columns cost the call past M; A stored K x M keeps that rule (a 16-bit tile reads
     * it only in 64-column atoms); 64 < M keeps it too.  TF32 N T splits in 2 at N = 4096
     * (64 blocks), not at 28672. */
    static const struct {
        int dtype;
        bool trans_a, trans_b;
        long M;
        const char *bn;
    } classes[] = { { CLGEMM_BF16, false, true, 17, "BN=32," },
                    { CLGEMM_F16, false, false, 32, "BN=32," },
                    { CLGEMM_BF16, false, true, 33, "BN=64," },
                    { CLGEMM_F16, false, true, 64, "BN=64," },
                    { CLGEMM_BF16, false, true, 65, "BN=128," },
                    { CLGEMM_BF16, true, true, 32, "BN=128," },
                    { CLGEMM_F32, false, true, 24, "BN=32," },
                    { CLGEMM_F32, false, true, 64, "BN=64," },
                    { CLGEMM_F32, false, false, 64, "BN=128," } };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        x = shape_rule_lookup(r, h100, "", "tensor_core", classes[i].dtype, classes[i].trans_a,
                              classes[i].trans_b, false, classes[i].M, 4096);
        EXPECT(x && strstr(x->params, classes[i].bn));
        if (x && classes[i].dtype == CLGEMM_F32 && strstr(x->params, "BN=64,")) {
            EXPECT(shape_rule_split(x, 132, 64, 4096, true) == 2);
            EXPECT(shape_rule_split(x, 132, 448, 4096, true) == 1);
        }
    }
    /* The wide forms, N T.  16-bit (probes 208-214; on the H200 217-218): 128-row blocks of
     * the weight where the M <= 32, 64 and 128 rules' 64-row ones need more rounds of the SMs
     * (N = 11008, 28672), the swapped 128 x 256 tile for 128 < M <= 512; the rule's own tile
     * where its blocks fit one round (N = 6144, 256 x 4096) or the wide one needs as many
     * (384 x 11008: two 256-row tiles of X).  TF32 at 16 < M <= 64 the same way (probes
     * 220-221), unsplit; at N = 4096 the rule's 64 blocks in 2 slices (0.5 of a round) stay.
     * tf32x3 at M <= 16 and 16 < M <= 64 (probes 230-232, 234) the same, X split in local
     * memory (PACKB=2): the forms the rules name must keep that split, checked below.  16-bit
     * M <= 16: the same tile with 8 slots once N gives 80 blocks or more (probe257). */
    const char *const tc = "tensor_core", *const x3 = "tensor_core_tf32x3";
    const struct {
        const char *purpose, *device;
        int dtype;
        long M, N, own, split, wide;
        bool take;
        const char *form;
    } wide[] = { { tc, h100, CLGEMM_BF16, 128, 28672, 448, 1, 224, true, "BM=128,BN=128," },
                 { tc, h100, CLGEMM_BF16, 128, 6144, 96, 1, 48, false, "BM=128,BN=128," },
                 { tc, h100, CLGEMM_BF16, 48, 28672, 448, 1, 224, true, "BM=128,BN=64," },
                 { tc, h100, CLGEMM_BF16, 64, 6144, 96, 1, 48, false, "BM=128,BN=64," },
                 { tc, h100, CLGEMM_BF16, 32, 11008, 172, 1, 86, true, "BM=128,BN=32," },
                 { tc, h100, CLGEMM_BF16, 200, 28672, 448, 1, 224, true, "BM=128,BN=256," },
                 { tc, h100, CLGEMM_BF16, 512, 14336, 448, 1, 224, true, "BM=128,BN=256," },
                 { tc, h100, CLGEMM_BF16, 384, 11008, 258, 1, 172, false, "BM=128,BN=256," },
                 { tc, h100, CLGEMM_BF16, 256, 4096, 64, 1, 32, false, "BM=128,BN=256," },
                 { tc, h100, CLGEMM_BF16, 16, 6144, 96, 1, 96, true, "BN=16,WGN=16,STAGES=8," },
                 { tc, h100, CLGEMM_F16, 16, 28672, 448, 1, 448, true, "BN=16,WGN=16,STAGES=8," },
                 { tc, h100, CLGEMM_BF16, 16, 4096, 64, 1, 64, false, "BN=16,WGN=16,STAGES=8," },
                 { tc, "NVIDIA H200", CLGEMM_BF16, 128, 11008, 172, 1, 86, true, "BM=128,BN=128," },
                 { tc, "NVIDIA H200", CLGEMM_BF16, 200, 28672, 448, 1, 224, true, "BM=128,BN=256," },
                 { tc, "NVIDIA H200", CLGEMM_BF16, 384, 11008, 258, 1, 172, false, "BM=128,BN=256," },
                 { tc, h100, CLGEMM_F32, 48, 28672, 448, 1, 224, true, "BM=128,BN=64," },
                 { tc, h100, CLGEMM_F32, 64, 6144, 96, 1, 48, false, "BM=128,BN=64," },
                 { tc, h100, CLGEMM_F32, 64, 4096, 64, 2, 32, false, "BM=128,BN=64," },
                 { tc, h100, CLGEMM_F32, 32, 11008, 172, 1, 86, true, "BM=128,BN=32," },
                 { tc, "NVIDIA H200", CLGEMM_F32, 64, 11008, 172, 1, 86, true, "BM=128,BN=64," },
                 { tc, "NVIDIA H200", CLGEMM_F32, 24, 4096, 64, 2, 32, false, "BM=128,BN=32," },
                 { x3, h100, CLGEMM_F32, 16, 28672, 448, 1, 224, true, "BM=128,BN=16," },
                 { x3, h100, CLGEMM_F32, 16, 11008, 172, 1, 86, true, "BM=128,BN=16," },
                 { x3, h100, CLGEMM_F32, 16, 4096, 64, 2, 32, false, "BM=128,BN=16," },
                 { x3, h100, CLGEMM_F32, 4, 6144, 96, 1, 48, false, "BM=128,BN=16," },
                 { x3, "NVIDIA H200", CLGEMM_F32, 12, 28672, 448, 1, 224, true, "BM=128,BN=16," },
                 { x3, h100, CLGEMM_F32, 32, 11008, 172, 1, 86, true, "BM=128,BN=32," },
                 { x3, h100, CLGEMM_F32, 24, 4096, 64, 2, 32, false, "BM=128,BN=32," },
                 { x3, h100, CLGEMM_F32, 48, 28672, 448, 1, 224, true, "BM=128,BN=64," },
                 { x3, h100, CLGEMM_F32, 64, 6144, 96, 1, 48, false, "BM=128,BN=64," },
                 { x3, "NVIDIA H200", CLGEMM_F32, 32, 28672, 448, 1, 224, true, "BM=128,BN=32," },
                 { x3, "NVIDIA H200", CLGEMM_F32, 64, 4096, 64, 2, 32, false, "BM=128,BN=64," } };
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++) {
        x = shape_rule_lookup(r, wide[i].device, "", wide[i].purpose, wide[i].dtype, false, true,
                              false, wide[i].M, wide[i].N);
        const bool ok = x && strstr(x->wide_params, wide[i].form) && !x->wide_split &&
                        shape_rule_split(x, 132, wide[i].own, 4096, true) == wide[i].split &&
                        shape_rule_wide(x, 132, wide[i].own, (int)wide[i].split, 4096, true,
                                        wide[i].wide, 1, NULL, NULL) == wide[i].take;
        if (!ok)
            printf("FAIL wide form (%s, %s data) on %s at %ldx%ldx4096: %s\n", wide[i].purpose,
                   clgemm_dtype_name((clgemm_dtype)wide[i].dtype), wide[i].device, wide[i].M,
                   wide[i].N, x ? x->wide_params : "no rule");
        failures += !ok;
    }
    /* tf32x3 splits X in local memory from M = 2 to 64 (step 11's M <= 4 rule is gone), on both
     * GPUs: every such form keeps PACKB=2, and M = 1 stays step 11's. */
    const char *const gpus[] = { h100, "NVIDIA H200" };
    for (int g = 0; g < 2; g++)
        for (long m = 1; m <= 64; m = m < 4 ? m + 1 : m * 2) {
            x = shape_rule_lookup(r, gpus[g], "", x3, CLGEMM_F32, false, true, false, m, 4096);
            const bool ok = x && (m == 1 ? strcmp(x->algorithm, "skinny") == 0
                                         : strstr(x->params, "PACKB=2") &&
                                               strstr(x->wide_params, "PACKB=2"));
            if (!ok)
                printf("FAIL tf32x3 N T at %ldx4096x4096 on %s: %s\n", m, gpus[g],
                       x ? x->params : "no rule");
            failures += !ok;
        }
    tuning_free(&db);
}

/* TF32 beyond the rules (shape_tf32_registers_form): the wide tile and tf32x3's take A in
 * registers with the producer's registers, swapped where B is the larger operand; a narrow
 * tile (few blocks: api_fill_tiles) or a 64-row one keeps its form. */
static void test_tf32_registers_form(void)
{
    const char *f = shape_tf32_registers_form(4096, 4096, 128, 256, false);
    EXPECT(f && strcmp(f, "PACKA=3,SETMAXNREG=1") == 0);
    f = shape_tf32_registers_form(4096, 28672, 128, 256, false);
    EXPECT(f && strcmp(f, "PACKA=3,SETMAXNREG=1,SWAP=1") == 0);
    f = shape_tf32_registers_form(28672, 4096, 128, 256, false);
    EXPECT(f && strcmp(f, "PACKA=3,SETMAXNREG=1") == 0);
    f = shape_tf32_registers_form(1000, 3000, 128, 128, true); /* tf32x3 */
    EXPECT(f && strcmp(f, "PACKA=3,SETMAXNREG=1,SWAP=1") == 0);
    EXPECT(!shape_tf32_registers_form(1024, 1024, 128, 128, false)); /* the filled tile */
    EXPECT(!shape_tf32_registers_form(4096, 4096, 64, 256, false)); /* one consumer */
}

int main(void)
{
    test_parse_and_lookup();
    test_shipped();
    test_shipped_choices();
    test_tf32_registers_form();
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
