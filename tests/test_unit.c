/* Unit tests of the CLI's and the library's parsing: --size, the flags, tile parameters,
 * --dtype, and the registry's names and parameter keys; bad forms refused with one line. */

#include <stdarg.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_sources.h"
#include "cli.h"
#include "params.h"
#include "program.h"
#include "registry.h"
#include "expect.h"

static void test_parse_size(void)
{
    gemm_shape s;
    errbuf e = { "" };
    EXPECT(parse_size("1024", &s, &e) == 0 && s.M == 1024 && s.N == 1024 && s.K == 1024);
    EXPECT(parse_size("1000x17x513", &s, &e) == 0 && s.M == 1000 && s.N == 17 && s.K == 513);
    EXPECT(parse_size("1", &s, &e) == 0 && s.M == 1);
    const char *bad[] = { "0", "-5", "abc", "4096x", "x4096", "1x2", "1x2x3x4", "1xx2x3", "",
                          "12a", " 12", "1x0x3", "99999999999", "2147483648", "1.5", "0x10x10" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e.msg[0] = '\0';
        int rc = parse_size(bad[i], &s, &e);
        EXPECT(rc == -1);
        EXPECT(strstr(e.msg, "bad --size") != NULL);
        if (rc != -1)
            fprintf(stderr, "  accepted bad size '%s'\n", bad[i]);
    }
    EXPECT(parse_size("2147483647x1x1", &s, &e) == 0 && s.M == 2147483647);
}

static int parse(cli_options *o, errbuf *e, int n, ...)
{
    char *argv[16] = { "clgemm" };
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        argv[i + 1] = va_arg(ap, char *);
    va_end(ap);
    return cli_parse(n + 1, argv, o, e);
}

static void test_cli(void)
{
    cli_options o;
    errbuf e = { "" };
    EXPECT(parse(&o, &e, 0) == 0 && o.nalgos == 0 && !o.size_given && o.check &&
           o.iters == 0 && o.format == FORMAT_TABLE && o.device == NULL);
    EXPECT(parse(&o, &e, 4, "--algo", "tiled", "--size=33x65x7", "--no-check") == 0 &&
           o.nalgos == 1 && strcmp(o.algos[0], "tiled") == 0 && o.size_given && o.shape.M == 33 &&
           o.shape.N == 65 && o.shape.K == 7 && !o.check);
    EXPECT(parse(&o, &e, 6, "--iters", "5", "--warmup", "0", "--format", "json") == 0 &&
           o.iters == 5 && o.warmup == 0 && o.format == FORMAT_JSON);
    EXPECT(parse(&o, &e, 3, "--alpha", "-1.5", "--beta=0.25") == 0 && o.alpha == -1.5f &&
           o.beta == 0.25f);
    EXPECT(parse(&o, &e, 2, "--device", "1:0") == 0 && strcmp(o.device, "1:0") == 0);
    EXPECT(parse(&o, &e, 2, "--algo", "nosuch") == -1 && strstr(e.msg, "unknown algorithm"));
    EXPECT(parse(&o, &e, 2, "--algo", "nosuch:BM=4") == -1);
    EXPECT(parse(&o, &e, 2, "--algo", "tiled:") == 0);
    EXPECT(parse(&o, &e, 4, "--algo", "naive", "--algo", "block_tiled:BM=64,BN=64") == 0 &&
           o.nalgos == 2 && strcmp(o.algos[1], "block_tiled:BM=64,BN=64") == 0);
    EXPECT(parse(&o, &e, 2, "--iters", "0") == -1 && strstr(e.msg, "--iters"));
    EXPECT(parse(&o, &e, 2, "--iters", "-3") == -1);
    EXPECT(parse(&o, &e, 2, "--warmup", "x") == -1);
    EXPECT(parse(&o, &e, 2, "--format", "xml") == -1 && strstr(e.msg, "--format"));
    EXPECT(parse(&o, &e, 1, "--size") == -1 && strstr(e.msg, "needs a value"));
    EXPECT(parse(&o, &e, 1, "--bogus") == -1 && strstr(e.msg, "unknown option"));
    EXPECT(parse(&o, &e, 2, "--beta", "nan") == -1);
    EXPECT(parse(&o, &e, 2, "--device", "") == -1);
    EXPECT(parse(&o, &e, 2, "--seed", "-1") == -1);
    /* getopt_long: full names only, no value for a plain flag, no stray words, short -h/-q. */
    EXPECT(parse(&o, &e, 2, "--si", "64") == -1 && strstr(e.msg, "unknown option '--si'"));
    EXPECT(parse(&o, &e, 1, "--quiet=1") == -1 && strstr(e.msg, "--quiet takes no value"));
    EXPECT(parse(&o, &e, 3, "--size", "64", "extra") == -1 && strstr(e.msg, "unexpected"));
    EXPECT(parse(&o, &e, 1, "--algo") == -1 && strstr(e.msg, "--algo needs a value"));
    EXPECT(parse(&o, &e, 2, "--show-unsupported", "-qh") == 0 && o.show_unsupported &&
           o.quiet && o.help);
    /* A parse that stopped inside "-qx" leaves nothing behind for the next argv. */
    EXPECT(parse(&o, &e, 1, "-qx") == -1 && strstr(e.msg, "'-qx'"));
    EXPECT(parse(&o, &e, 2, "--size=64", "--no-check") == 0 && !o.quiet && !o.help &&
           !o.show_unsupported && o.shape.M == 64 && !o.check);
    EXPECT(parse(&o, &e, 2, "--size", "64") == 0 && o.size_given && o.shape.K == 64);
    EXPECT(parse(&o, &e, 3, "--alpha", "-2", "--") == 0 && o.alpha == -2.0f);
    /* the general call's flags: defaults, every value, and one-line refusals */
    EXPECT(parse(&o, &e, 0) == 0 && o.layout == CLGEMM_ROW_MAJOR && o.op_a == CLGEMM_OP_N &&
           o.op_b == CLGEMM_OP_N && o.ld_pad == -1 && o.batch == 1);
    EXPECT(parse(&o, &e, 8, "--layout", "col", "--trans", "TN", "--ld-pad", "0", "--batch",
                 "3") == 0 &&
           o.layout == CLGEMM_COL_MAJOR && o.op_a == CLGEMM_OP_T && o.op_b == CLGEMM_OP_N &&
           o.ld_pad == 0 && o.batch == 3);
    EXPECT(parse(&o, &e, 2, "--trans=NT", "--layout=row") == 0 && o.op_a == CLGEMM_OP_N &&
           o.op_b == CLGEMM_OP_T && o.layout == CLGEMM_ROW_MAJOR);
    EXPECT(parse(&o, &e, 1, "--trans=TT") == 0 && o.op_a == CLGEMM_OP_T && o.op_b == CLGEMM_OP_T);
    EXPECT(parse(&o, &e, 2, "--layout", "diag") == -1 && strstr(e.msg, "--layout 'diag'"));
    EXPECT(parse(&o, &e, 2, "--layout", "Col") == -1 && strstr(e.msg, "--layout"));
    EXPECT(parse(&o, &e, 2, "--trans", "NX") == -1 && strstr(e.msg, "--trans 'NX'"));
    EXPECT(parse(&o, &e, 2, "--trans", "N") == -1 && strstr(e.msg, "--trans"));
    EXPECT(parse(&o, &e, 2, "--trans", "nn") == -1 && strstr(e.msg, "--trans"));
    EXPECT(parse(&o, &e, 2, "--trans", "NNN") == -1 && strstr(e.msg, "--trans"));
    EXPECT(parse(&o, &e, 2, "--ld-pad", "-1") == -1 && strstr(e.msg, "--ld-pad '-1'"));
    EXPECT(parse(&o, &e, 2, "--ld-pad", "65537") == -1 && strstr(e.msg, "--ld-pad"));
    EXPECT(parse(&o, &e, 2, "--batch", "0") == -1 && strstr(e.msg, "--batch '0'"));
    EXPECT(parse(&o, &e, 2, "--batch", "2x") == -1 && strstr(e.msg, "--batch"));
}

static void test_params(void)
{
    params p = { 0 };
    errbuf e = { "" };
    EXPECT(params_parse(&p, "BM=128 BN=64 TM=8", &e) == 0 && p.count == 3);
    EXPECT(params_parse(&p, "BN=32, VEC=4", &e) == 0 && p.count == 4);
    EXPECT(params_get(&p, "BN", 0) == 32 && params_get(&p, "BM", 0) == 128 &&
           params_get(&p, "XX", -7) == -7);
    char text[128];
    params_to_defines(&p, text, sizeof text);
    EXPECT(strcmp(text, "-DBM=128 -DBN=32 -DTM=8 -DVEC=4") == 0);
    params_to_text(&p, text, sizeof text);
    EXPECT(strcmp(text, "BM=128 BN=32 TM=8 VEC=4") == 0);
    EXPECT(params_parse(&p, "BM", &e) == -1);
    EXPECT(params_parse(&p, "BM=x", &e) == -1);
    EXPECT(params_parse(&p, "=4", &e) == -1);
    EXPECT(params_parse(&p, "4B=4", &e) == -1);
    /* one text naming a key twice is refused; set on top of another text, a key replaces */
    EXPECT(params_parse(&p, "BK=16,BK=8", &e) == -1 && strstr(e.msg, "BK given twice"));
    EXPECT(params_with("BM=64,SWAP=1,PACKA=3", "SWAP", 0, text, sizeof text) == 0 &&
           strcmp(text, "BM=64,SWAP=0,PACKA=3") == 0);
    EXPECT(params_with("BM=64", "SPLITK", 4, text, sizeof text) == 0 &&
           strcmp(text, "BM=64,SPLITK=4") == 0);
    EXPECT(params_with(text, "SPLITK", 2, text, sizeof text) == 0 && /* in place */
           strcmp(text, "BM=64,SPLITK=2") == 0);
    EXPECT(params_with("", "SWAP", 1, text, sizeof text) == 0 && strcmp(text, "SWAP=1") == 0);
    EXPECT(params_with("BM=64,BM=32", "SWAP", 1, text, sizeof text) == -1);
    EXPECT(params_with("BM=64,BN=128", "SWAP", 1, text, 8) == -1); /* does not fit */
}

/* Whether `word` stands in `text` as a whole identifier. */
static bool has_word(const char *text, const char *word)
{
    const size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        const bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        const bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (left && right)
            return true;
    }
    return false;
}

/* Every public name is consistent; every variant names a file that is embedded, a kernel
 * defined in it, parameters the file reads, and defaults that give a valid launch shape. */
static void test_registry(void)
{
    size_t n, nv;
    const algo_def *all = algos_all(&n);
    const variant *vars = variants_all(&nv);
    EXPECT(n >= 12 && nv >= n);
    EXPECT(clgemm_algorithm_count() == n && clgemm_algorithm(n) == NULL);
    for (size_t i = 0; i < n; i++) {
        const clgemm_algorithm_desc *d = &all[i].desc;
        EXPECT(algo_find(d->name) == &all[i] && clgemm_find_algorithm(d->name) == d);
        EXPECT(clgemm_algorithm(i) == d && d->summary && *d->summary && d->ld_multiple >= 1);
        /* a lesson step is its number in order; a purpose name lists steps that exist */
        EXPECT((d->step == 0) == (all[i].candidates != NULL));
        EXPECT(d->step == 0 || d->step == (int)i + 1);
        for (const char *c = all[i].candidates; c && *c;) {
            size_t len = strcspn(c, ": ");
            const algo_def *s = algo_find_n(c, len);
            EXPECT(s && s->desc.step > 0);
            c += strcspn(c, " ");
            c += strspn(c, " ");
        }
        bool has_variant = all[i].candidates != NULL;
        for (size_t v = 0; v < nv; v++)
            has_variant = has_variant || strcmp(vars[v].algorithm, d->name) == 0;
        EXPECT(has_variant);
    }
    for (size_t v = 0; v < nv; v++) {
        const variant *r = &vars[v];
        const algo_def *step = algo_find(r->algorithm);
        EXPECT(step && step->desc.step > 0 && r->dtypes && r->ld_multiple >= 1);
        errbuf e = { "" };
        char *src = kernel_source_load(r->file, &e);
        EXPECT(src != NULL);
        if (!src) {
            fprintf(stderr, "  %s: %s\n", r->file, e.msg);
            continue;
        }
        char decl[128];
        snprintf(decl, sizeof decl, "void %s(", r->kernel);
        EXPECT(strstr(src, decl) != NULL);
        EXPECT(strstr(src, "\n#include \"") == NULL && strncmp(src, "#include \"", 10) != 0);
        /* A batched kernel finds its problem in dimension 2 (step 10's tensor maps and TF32
         * pre-pass take it too, as their third dimension). */
        {
            /* the kernel's own file, not common.h's definitions, opens with the entry (or
             * with steps 3-5's GEMM_GROUP_BLOCK, which holds it; step 10 moves to each of
             * its problems in turn, MOVE_TO_PROBLEM, which PERSIST loops over) */
            const char *own = NULL;
            for (const struct embedded_kernel *k = embedded_kernels; k->name; k++)
                if (strcmp(k->name, r->file) == 0)
                    own = k->source;
            EXPECT(own && r->batched == (strstr(own, "GEMM_BATCH_ENTRY(A, B, C);") != NULL ||
                                         strstr(own, "GEMM_GROUP_BLOCK(BM, BN);") != NULL ||
                                         strstr(own, "MOVE_TO_PROBLEM(prob);") != NULL));
        }
        /* a parameter the kernel does not read would be accepted and ignored */
        char keys[256];
        variant_keys(r, keys, sizeof keys);
        for (char *k = strtok(keys, " "); k; k = strtok(NULL, " "))
            if (strcmp(k, "SPLITK") != 0 && !has_word(src, k)) { /* SPLITK: the host's */
                failures++;
                fprintf(stderr, "  %s (%s): parameter %s is not read by %s\n", r->algorithm,
                        r->backend, k, r->file);
            }
        free(src);
        params p = { 0 };
        EXPECT(params_parse(&p, r->defaults, &e) == 0);
        long bm = params_get(&p, "BM", 0), bn = params_get(&p, "BN", 0);
        /* a tile launch without TM/TN has one element per work-item */
        long tm = params_get(&p, "TM", 1), tn = params_get(&p, "TN", 1);
        if (r->launch == LAUNCH_TILE || r->launch == LAUNCH_TILE_ROWS)
            EXPECT(bm > 0 && bn > 0 && tm > 0 && tn > 0 && bm % tm == 0 && bn % tn == 0);
        else if (r->launch == LAUNCH_GROUPS) /* BN follows from WG, KT and RN (plan.c) */
            EXPECT(bm > 0 && params_get(&p, "WG", 0) % params_get(&p, "KT", 1) == 0);
        else
            EXPECT(bm >= 64 && bm % 64 == 0 && bn > 0 && !params_get(&p, "TM", 0) &&
                   !params_get(&p, "TN", 0));
    }
    EXPECT(algo_find("nosuch") == NULL && clgemm_find_algorithm("nosuch") == NULL);
    EXPECT(algo_find("clblast") == NULL); /* the baseline belongs to the CLI, not the library */
    errbuf e = { "" };
    EXPECT(kernel_source_load("nosuch.cl", &e) == NULL && strstr(e.msg, "nosuch.cl"));
}

static void test_dtype_cli(void)
{
    clgemm_dtype d;
    bool x3 = true;
    errbuf e = { "" };
    EXPECT(parse_dtype("f16", &d, &x3, &e) == 0 && d == CLGEMM_F16 && !x3);
    EXPECT(parse_dtype("bf16", &d, &x3, &e) == 0 && d == CLGEMM_BF16 && !x3);
    EXPECT(parse_dtype("f32", &d, &x3, &e) == 0 && d == CLGEMM_F32 && !x3);
    EXPECT(parse_dtype("fp32", &d, &x3, &e) == 0 && d == CLGEMM_F32);
    EXPECT(parse_dtype("tf32x3", &d, &x3, &e) == 0 && d == CLGEMM_F32 && x3);
    const char *bad[] = { "F16", "", "half", "f16 ", "fp16x", "bf", "tf32" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e.msg[0] = '\0';
        EXPECT(parse_dtype(bad[i], &d, &x3, &e) == -1 && strstr(e.msg, "bad --dtype"));
    }
    cli_options o;
    EXPECT(parse(&o, &e, 0) == 0 && o.dtype == CLGEMM_F32);
    EXPECT(parse(&o, &e, 2, "--dtype", "bf16") == 0 && o.dtype == CLGEMM_BF16 && o.nalgos == 0);
    EXPECT(parse(&o, &e, 3, "--dtype=f16", "--algo", "tensor_core") == 0 &&
           o.dtype == CLGEMM_F16 && o.nalgos == 1);
    EXPECT(parse(&o, &e, 2, "--dtype", "tf32x3") == 0 && o.dtype == CLGEMM_F32 &&
           o.nalgos == 1 && strcmp(o.algos[0], "tensor_core_tf32x3") == 0);
    EXPECT(parse(&o, &e, 2, "--dtype", "f8") == -1 && strstr(e.msg, "--dtype"));
    EXPECT(parse(&o, &e, 1, "--dtype") == -1 && strstr(e.msg, "needs a value"));
    EXPECT(strcmp(clgemm_dtype_name(CLGEMM_BF16), "bf16") == 0 &&
           clgemm_dtype_name((clgemm_dtype)7) == NULL);
    EXPECT(clgemm_algorithm_has_dtype("tensor_core", CLGEMM_F16) &&
           clgemm_algorithm_has_dtype("tensor_core:BM=64", CLGEMM_BF16) &&
           !clgemm_algorithm_has_dtype("tensor_core_tf32x3", CLGEMM_F16) &&
           !clgemm_algorithm_has_dtype("warp_tiled", CLGEMM_BF16) &&
           clgemm_algorithm_has_dtype("warp_tiled", CLGEMM_F32) &&
           !clgemm_algorithm_has_dtype("nosuch", CLGEMM_F32));
}

int main(void)
{
    test_parse_size();
    test_cli();
    test_params();
    test_registry();
    test_dtype_cli();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
