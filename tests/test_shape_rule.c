/* The shape rule (host/lib/shape_rule.h) on strings alone: parsing, which class a call falls
 * in, the split count and the wide forms, on rules written here; the rules shipped in tuning/
 * are test_shipped_rules.c's. */
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
    " {\"device\": \"GPU T\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"NT\",\n"
    "  \"m_max\": 16, \"algorithm\": \"skinny\", \"params\": \"\", \"split_slice_k\": 256,\n"
    "  \"split_partial_k\": 160, \"split_kmin\": 512, \"groups_per_cu\": 2},\n"
    " {\"device\": \"GPU T\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"NT\",\n"
    "  \"m_max\": 8, \"algorithm\": \"skinny\", \"params\": \"\", \"split_slice_k\": 256,\n"
    "  \"groups_per_cu\": 1.5},\n"
    " {\"device\": \"GPU T\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"NT\",\n"
    "  \"m_max\": 4, \"algorithm\": \"skinny\", \"params\": \"\", \"split_slice_k\": 256,\n"
    "  \"groups_per_cu\": 0},\n"
    " {\"device\": \"GPU R\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 64, \"algorithm\": \"warp_tiled\", \"params\": \"\", \"split_slice_k\": 8,\n"
    "  \"split_partial_k\": 80, \"groups_per_cu\": 3, \"split_kmin\": 128, \"split_rest\": 0.05},\n"
    " {\"device\": \"GPU R\", \"purpose\": \"auto\", \"dtype\": \"f32\", \"trans\": \"any\",\n"
    "  \"m_max\": 32, \"algorithm\": \"warp_tiled\", \"params\": \"\", \"split_slice_k\": 8,\n"
    "  \"split_rest\": -0.5},\n"
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
    EXPECT(db.rules.count == 14);                        /* ... fourteen good rules of 29 */
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
    /* groups_per_cu 2: a round is two groups per CU, as step 11's fp32 N T kernel runs them at
     * M = 16.  Each count is the fastest of splits 1..16 measured on the H100 at that shape
     * (probe278, 64 columns per block), but 96 x 14336 (8 measured, 2% ahead of this 5); with
     * rounds of one group per CU the model takes 4, 2, 2, 1, 1, 4 and 2 in the first seven. */
    x = shape_rule_lookup(r, "GPU T", "", "auto", CLGEMM_F32, false, true, false, 1, 4096);
    EXPECT(x && x->m_max == 16 && x->groups_per_cu == 2); /* the malformed M <= 4, 8 skipped */
    EXPECT(shape_rule_split(x, 132, 32, 4096, true) == 8);    /* 16 x 2048 x 4096 */
    EXPECT(shape_rule_split(x, 132, 48, 4096, true) == 5);    /* 16 x 3072 x 4096 */
    EXPECT(shape_rule_split(x, 132, 64, 4096, true) == 4);    /* 16 x 4096 x 4096 */
    EXPECT(shape_rule_split(x, 132, 96, 4096, true) == 2);    /* 16 x 6144 x 4096 */
    EXPECT(shape_rule_split(x, 132, 128, 4096, true) == 2);   /* 16 x 8192 x 4096 */
    EXPECT(shape_rule_split(x, 132, 32, 14336, true) == 8);   /* 16 x 2048 x 14336 */
    EXPECT(shape_rule_split(x, 132, 64, 14336, true) == 4);   /* 16 x 4096 x 14336 */
    EXPECT(shape_rule_split(x, 132, 172, 4096, true) == 3);   /* 16 x 11008 x 4096 */
    EXPECT(shape_rule_split(x, 132, 172, 14336, true) == 3);  /* 16 x 11008 x 14336 */
    EXPECT(shape_rule_split(x, 132, 224, 4096, true) == 1);   /* 16 x 14336 x 4096 */
    EXPECT(shape_rule_split(x, 132, 448, 4096, true) == 1);   /* 16 x 28672 x 4096 */
    /* split_rest: what a count that leaves a rest of K (a second launch) costs, in rounds.
     * The default 0.4 keeps step 7 at 64 x 7168 x 4096 (56 blocks) on 4 even slices; at 0.05
     * it takes 7, which ran fastest there (probe284: 0.122 ms against 0.123 in 4, N N). */
    x = shape_rule_lookup(r, "GPU R", "", "auto", CLGEMM_F32, false, false, false, 20, 4096);
    EXPECT(x && x->m_max == 64 && x->split_rest == 0.05); /* the malformed M <= 32 skipped */
    EXPECT(x && shape_rule_split(x, 132, 56, 4096, false) == 7);
    EXPECT(x && shape_rule_split(x, 132, 148, 4096, false) == 8);
    shape_rule plain = x ? *x : (shape_rule){ 0 };
    plain.has_split_rest = false; /* as parsed without the field */
    EXPECT(x && shape_rule_split(&plain, 132, 56, 4096, false) == 4);
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

/* Where A is copied first anyway, each registers form has its twin with A rounded by that
 * copy (and without SETMAXNREG); any other parameters have none. */
static void test_tf32_copied_a_form(void)
{
    const char *f = shape_tf32_copied_a_form(shape_tf32_registers_form(4096, 4096, 128, 256,
                                                                       false));
    EXPECT(f && strcmp(f, "PACKA=1") == 0);
    f = shape_tf32_copied_a_form(shape_tf32_registers_form(4096, 28672, 128, 256, false));
    EXPECT(f && strcmp(f, "PACKA=1,SWAP=1") == 0);
    EXPECT(!shape_tf32_copied_a_form("PACKA=3,PACKB=2,ROUNDER=1,SWAP=1"));
    EXPECT(!shape_tf32_copied_a_form(""));
}

int main(void)
{
    test_parse_and_lookup();
    test_tf32_registers_form();
    test_tf32_copied_a_form();
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
