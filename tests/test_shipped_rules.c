/* The rules shipped in tuning/ (host/lib/shape_rule.h): each names a step that exists and
 * takes its element type, with parameters that step reads; and the H100's and H200's rules
 * choose, at the shapes their notes quote, what the devices' probes measured fastest. */
#include <stdio.h>
#include <string.h>

#include "kernel_sources.h"
#include "gemm.h"
#include "registry.h"
#include "shape_rule.h"
#include "tuning.h"
#include "expect.h"

/* Every shipped rule runs a step that exists, takes its element type and reads its keys. */
static void test_shipped(void)
{
    tuning_db db = { 0 };
    for (const struct embedded_kernel *k = embedded_tuning; k->name; k++) {
        int skipped = 0; /* a shipped entry or rule that does not parse would be lost silently */
        EXPECT(tuning_parse_counted(&db, k->source, strlen(k->source), 1, &skipped) >= 0);
        if (skipped)
            printf("FAIL %s: %d entries or rules do not parse\n", k->name, skipped);
        failures += skipped != 0;
    }
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
    const char *h100 = "NVIDIA H100 80GB HBM3", *h200 = "NVIDIA H200";
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
    /* TF32 N T at M <= 128 on the H200 (probe265): splits by rounds, each slice dear as 2000
     * values of K, and 128-row blocks (1.35 of a 64-row round) where the K of each block is
     * long enough: 128 rows in 4 slices at 128x4096x14336, 64 rows in 2 at 128x4096x4096,
     * 128 rows in 2 at N = 6144, unsplit at 28672, and 64 rows in 4 at N = 1024. */
    const struct {
        long N, K, own, split, wide, wide_split;
        bool take;
    } k_long[] = { { 4096, 14336, 64, 2, 32, 4, true }, { 4096, 4096, 64, 2, 32, 4, false },
                   { 6144, 4096, 96, 1, 48, 2, true }, { 28672, 4096, 448, 1, 224, 1, true },
                   { 1024, 4096, 16, 4, 8, 4, false } };
    x = shape_rule_lookup(r, "NVIDIA H200", "", tc, CLGEMM_F32, false, true, false, 128, 4096);
    for (size_t i = 0; x && i < sizeof k_long / sizeof k_long[0]; i++) {
        const int own = shape_rule_split(x, 132, k_long[i].own, k_long[i].K, true);
        const int ws = shape_rule_wide_split(x, 132, k_long[i].wide, k_long[i].K, true);
        const bool take = shape_rule_wide(x, 132, k_long[i].own, own, k_long[i].K, true,
                                          k_long[i].wide, ws, NULL, NULL);
        const bool ok =
            own == k_long[i].split && ws == k_long[i].wide_split && take == k_long[i].take;
        if (!ok)
            printf("FAIL TF32 N T on the H200 at 128x%ldx%ld: %d slices, wide form %s in %d\n",
                   k_long[i].N, k_long[i].K, own, take ? "taken" : "not taken", ws);
        failures += !ok;
    }
    EXPECT(x && strstr(x->wide_params, "BM=128,BN=128,") && x->wide_split);
    /* 16-bit N T at M <= 128 on the H200 (probe267): the 64-row blocks split in 2 where K is
     * long (128x4096x14336), unsplit at K = 4096 and at N = 6144, both types alike. */
    const struct {
        long N, K, own, split;
    } k16[] = { { 4096, 14336, 64, 2 }, { 4096, 4096, 64, 1 }, { 4096, 8192, 64, 1 },
                { 6144, 14336, 96, 1 }, { 6144, 4096, 96, 1 } };
    for (int d = 0; d < 2; d++) {
        const int type = d ? CLGEMM_F16 : CLGEMM_BF16;
        x = shape_rule_lookup(r, "NVIDIA H200", "", tc, type, false, true, false, 128, 4096);
        EXPECT(x && x->trans == 1 && strstr(x->params, "BM=64,BN=128,"));
        for (size_t i = 0; x && i < sizeof k16 / sizeof k16[0]; i++) {
            const int s = shape_rule_split(x, 132, k16[i].own, k16[i].K, true);
            const bool ok = s == k16[i].split;
            if (!ok)
                printf("FAIL %s N T on the H200 at 128x%ldx%ld: %d slices\n",
                       clgemm_dtype_name((clgemm_dtype)type), k16[i].N, k16[i].K, s);
            failures += !ok;
        }
        /* N N keeps the rule for any layout, unsplit */
        x = shape_rule_lookup(r, "NVIDIA H200", "", tc, type, false, false, false, 128, 4096);
        EXPECT(x && x->trans == -1 && shape_rule_split(x, 132, 64, 14336, true) == 1);
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
    /* f16 at M = 1, B stored K x N, caps step 11's registers at 32 on both GPUs: unsplit,
     * ptxas gave it 38, three groups of 512 per SM instead of four (probes 286-287 on the
     * H200: 1 x 28672 x 4096 0.0840 -> 0.0584 ms). */
    for (int g = 0; g < 2; g++) {
        x = shape_rule_lookup(r, gpus[g], "", "tensor_core", CLGEMM_F16, false, false, false, 1,
                              4096);
        const bool capped = x && strstr(x->params, "MAXNREG=32") != NULL;
        if (!capped)
            printf("FAIL f16 N N at M = 1 on %s: %s, no register cap\n", gpus[g],
                   x ? x->params : "no rule");
        failures += !capped;
    }
    /* Splits by rounds, the fastest measured count (or nearest the model came) at shapes
     * that split_per_cu got wrong.  Step 11 (one launch, probes 278-282): fp32 M <= 16 N T,
     * two groups per SM: 16 x 2048 x 4096 (32 blocks of 64) in 8, 16 x 11008 x 14336 (172)
     * in 3; M <= 4 N T 4 x 2048 x 4096 (32) in 4, N N (64 blocks of 32) in 2; bf16 M = 1 N N
     * 1 x 4096 x 4096 (64 blocks of 64) in 4 and, f16 too, 1 x 1024 x 8192 (16) in 8;
     * TF32's M = 1 N N rule, auto's kernel, at auto's count: 2 at 1 x 4096 x 4096 (128 blocks
     * of 32).  Step 7 at 16 < M <= 64 (a reduction launch after, probes 283-284), three
     * groups per SM: 64 x 4096 x 4096 (32 blocks) in 8, 64 x 8192 x 4096 (64) in 4,
     * 64 x 18944 x 4096 N T (148) in 8, where 7 ran 6% faster and 2.9 per CU gave 2 (+22%). */
    const struct {
        const char *gpu, *purpose, *algorithm;
        int dtype;
        bool trans_b;
        long M, tiles, K;
        int split;
    } rounds[] = { { h100, "auto", "skinny", CLGEMM_F32, true, 16, 32, 4096, 8 },
                   { h100, "auto", "skinny", CLGEMM_F32, true, 16, 172, 14336, 3 },
                   { h100, "auto", "skinny", CLGEMM_F32, true, 4, 32, 4096, 4 },
                   { h100, "auto", "skinny", CLGEMM_F32, false, 4, 64, 4096, 2 },
                   { h100, "tensor_core", "skinny", CLGEMM_BF16, false, 1, 64, 4096, 4 },
                   { h100, "tensor_core", "skinny", CLGEMM_F16, false, 1, 16, 8192, 8 },
                   { h100, "tensor_core", "skinny", CLGEMM_F32, false, 1, 128, 4096, 2 },
                   { h100, "auto", "skinny", CLGEMM_F32, false, 1, 128, 4096, 2 },
                   { h100, "auto", "warp_tiled", CLGEMM_F32, false, 64, 32, 4096, 8 },
                   { h100, "auto", "warp_tiled", CLGEMM_F32, true, 64, 32, 4096, 8 },
                   { h100, "auto", "warp_tiled", CLGEMM_F32, false, 64, 64, 4096, 4 },
                   { h100, "auto", "warp_tiled", CLGEMM_F32, true, 64, 148, 4096, 8 },
                   /* The H200's M = 1 N N rules, the H100's 16-bit model (its split audit):
                    * bf16 1 x 4096 x 4096 in 4 (3.88 per SM: 8, +30%), 1 x 14336 x 4096
                    * (224 blocks of 64) unsplit (2, +36%); fp32 and TF32 (blocks of 32)
                    * 1 x 6144 x 4096 unsplit (TF32's 7.76: 5, +17%), 1 x 14336 x 14336 in 2
                    * (auto's 1.94: 1, +13%). */
                   { h200, "tensor_core", "skinny", CLGEMM_BF16, false, 1, 64, 4096, 4 },
                   { h200, "tensor_core", "skinny", CLGEMM_BF16, false, 1, 224, 4096, 1 },
                   { h200, "tensor_core", "skinny", CLGEMM_F32, false, 1, 192, 4096, 1 },
                   { h200, "tensor_core", "skinny", CLGEMM_F32, false, 1, 448, 14336, 2 },
                   { h200, "auto", "skinny", CLGEMM_F32, false, 1, 448, 14336, 2 },
                   { h200, "tensor_core_tf32x3", "skinny", CLGEMM_F32, false, 1, 448, 14336, 2 } };
    for (size_t i = 0; i < sizeof rounds / sizeof rounds[0]; i++) {
        x = shape_rule_lookup(r, rounds[i].gpu, "", rounds[i].purpose, rounds[i].dtype, false,
                              rounds[i].trans_b, false, rounds[i].M, 4096);
        const bool in_launch = strcmp(rounds[i].algorithm, "skinny") == 0;
        const int got = x && strcmp(x->algorithm, rounds[i].algorithm) == 0
                            ? shape_rule_split(x, 132, rounds[i].tiles, rounds[i].K, in_launch)
                            : -1;
        if (got != rounds[i].split)
            printf("FAIL %s %s %s M = %ld, %ld blocks, K = %ld: %d slices, measured fastest %d\n",
                   rounds[i].gpu, rounds[i].purpose, clgemm_dtype_name((clgemm_dtype)rounds[i].dtype),
                   rounds[i].M, rounds[i].tiles, rounds[i].K, got, rounds[i].split);
        failures += got != rounds[i].split;
    }
    /* The H200's TF32 batches (probe290): 3 slots up to M = 128 (512 x 128^2 x 64: N N 0.0258
     * -> 0.0241 ms, N T 0.0239 -> 0.0232), 4 at M = 512 (64 x 512^2 x 64: 3 lost 1.5%). */
    for (int nt = 0; nt <= 1; nt++) {
        x = shape_rule_lookup(r, h200, "", "tensor_core", CLGEMM_F32, false, nt, true, 128, 128);
        EXPECT(x && strstr(x->params, "STAGES=3,") && x->m_max == 128 &&
               (strstr(x->params, "SWAP=1") != NULL) == !nt);
        x = shape_rule_lookup(r, h200, "", "tensor_core", CLGEMM_F32, false, nt, true, 512, 512);
        EXPECT(x && strstr(x->params, "STAGES=4,") && x->m_max == 512);
    }
    tuning_free(&db);
}

int main(void)
{
    test_shipped();
    test_shipped_choices();
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
