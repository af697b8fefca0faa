/* Unit tests of the pure parts of the host: size and flag parsing, tile parameters, the
 * registry, --device spec resolution, include expansion and the error metric. */
#include <math.h>
#include <stdarg.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "kernel_sources.h"
#include "tuning.h"
#include "check.h"
#include "cli.h"
#include "device.h"
#include "dtype.h"
#include "gemm.h"
#include "matrix.h"
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

static device_info fake(unsigned p, unsigned d, cl_device_type type, const char *plat,
                        const char *name)
{
    device_info x;
    memset(&x, 0, sizeof x);
    x.platform_index = p;
    x.device_index = d;
    x.type = type;
    snprintf(x.platform_name, sizeof x.platform_name, "%s", plat);
    snprintf(x.name, sizeof x.name, "%s", name);
    snprintf(x.vendor, sizeof x.vendor, "%s", plat);
    return x;
}

static void test_device_select(void)
{
    device_info items[3] = {
        fake(0, 0, CL_DEVICE_TYPE_CPU, "Portable Computing Language", "pthread-cpu"),
        fake(1, 0, CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA H100 80GB HBM3"),
        fake(1, 1, CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA H200"),
    };
    snprintf(items[0].version, sizeof items[0].version, "OpenCL 3.0 PoCL HSTR: pthread");
    device_list list = { items, 3 };
    size_t picked[3];
    errbuf e = { "" };
    EXPECT(devices_select(&list, NULL, picked, &e) == 1 && picked[0] == 1); /* GPU first */
    EXPECT(devices_select(&list, "", picked, &e) == 1 && picked[0] == 1);
    EXPECT(devices_select(&list, "all", picked, &e) == 3 && picked[2] == 2);
    EXPECT(devices_select(&list, "1:1", picked, &e) == 1 && picked[0] == 2);
    EXPECT(devices_select(&list, "0:0", picked, &e) == 1 && picked[0] == 0);
    EXPECT(devices_select(&list, "2", picked, &e) == 1 && picked[0] == 2);
    EXPECT(devices_select(&list, "pocl", picked, &e) == 1 && picked[0] == 0); /* version */
    EXPECT(devices_select(&list, "portable", picked, &e) == 1 && picked[0] == 0);
    EXPECT(devices_select(&list, "h200", picked, &e) == 1 && picked[0] == 2);
    EXPECT(devices_select(&list, "NVIDIA", picked, &e) == 1 && picked[0] == 1);
    EXPECT(devices_select(&list, "3", picked, &e) == -1 && strstr(e.msg, "no device 3"));
    EXPECT(devices_select(&list, "2:0", picked, &e) == -1 && strstr(e.msg, "2:0"));
    EXPECT(devices_select(&list, "amd", picked, &e) == -1 && strstr(e.msg, "amd"));
    items[1].type = items[2].type = CL_DEVICE_TYPE_ACCELERATOR;
    EXPECT(devices_select(&list, NULL, picked, &e) == 1 && picked[0] == 0); /* no GPU */
}

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

/* Entries round-trip, and every damage to one is refused, never read past its end. */
static void test_cache_entry(void)
{
    const unsigned char payload[] = "compiled program bytes";
    size_t len;
    unsigned char *buf = cache_entry_build("key-1", payload, sizeof payload, &len);
    const unsigned char *p;
    size_t n;
    EXPECT(buf && cache_entry_parse(buf, len, "key-1", &p, &n) == CACHE_ENTRY_OK &&
           n == sizeof payload && memcmp(p, payload, n) == 0);
    EXPECT(cache_entry_parse(buf, len, "key-2", &p, &n) == CACHE_ENTRY_OTHER_KEY);
    EXPECT(cache_entry_parse(buf, len, "key-", &p, &n) == CACHE_ENTRY_OTHER_KEY);
    int refused = 0;
    for (size_t cut = 0; cut < len; cut++)
        refused += cache_entry_parse(buf, cut, "key-1", &p, &n) == CACHE_ENTRY_CORRUPT;
    EXPECT(refused == (int)len); /* every truncation */
    int flips = 0;
    for (size_t i = 0; i < len; i++) {
        buf[i] ^= 0x40;
        flips += cache_entry_parse(buf, len, "key-1", &p, &n) != CACHE_ENTRY_OK;
        buf[i] ^= 0x40;
    }
    EXPECT(flips == (int)len); /* every single-byte change */
    free(buf);
    EXPECT(fnv1a64("a", 1, FNV1A64_SEED) == 0xaf63dc4c8601ec8cull); /* published FNV-1a value */
}

static bool not_warp_tiled(const char *algorithm) { return strcmp(algorithm, "warp_tiled") != 0; }

static void test_tuning(void)
{
    const char *text =
        "{\"format\": \"clgemm-tuning-1\", \"note\": {\"x\": [1, 2, {\"y\": null}]},\n"
        " \"entries\": [\n"
        "  {\"device\": \"GPU X\", \"driver\": \"1.0\", \"algorithm\": \"warp_tiled\",\n"
        "   \"M\": 1024, \"N\": 1024, \"K\": 1024, \"params\": \"BM=64,BN=64\", \"gflops\": 9000},\n"
        "  {\"device\": \"GPU X\", \"driver\": \"1.0\", \"algorithm\": \"warp_tiled\",\n"
        "   \"M\": 4096, \"N\": 4096, \"K\": 4096, \"params\": \"BM=128,BN=128\", \"gflops\": 40000.5},\n"
        "  {\"device\": \"GPU X\", \"driver\": \"2.0\", \"algorithm\": \"warp_tiled\",\n"
        "   \"M\": 4096, \"N\": 4096, \"K\": 4096, \"params\": \"BM=256,BN=128\", \"gflops\": 41000},\n"
        "  {\"device\": \"GPU X\", \"driver\": \"1.0\", \"algorithm\": \"tiled\",\n"
        "   \"M\": 4096, \"N\": 4096, \"K\": 4096, \"params\": \"BM=32\", \"gflops\": 7000, \"extra\": true},\n"
        "  {\"device\": \"GPU X\", \"algorithm\": \"incomplete\"}\n"
        " ]}";
    tuning_db db = { 0 };
    EXPECT(tuning_parse(&db, text, strlen(text), 0) == 4 && db.count == 4);
    const tuning_entry *t = tuning_lookup(&db, "GPU X", "1.0", "warp_tiled", 1000, 1000, 1000, NULL);
    EXPECT(t && strcmp(t->params, "BM=64,BN=64") == 0);
    t = tuning_lookup(&db, "GPU X", "1.0", "warp_tiled", 4095, 4095, 4095, NULL);
    EXPECT(t && strcmp(t->params, "BM=128,BN=128") == 0); /* same driver preferred */
    t = tuning_lookup(&db, "GPU X", "2.0", "warp_tiled", 8192, 8192, 8192, NULL);
    EXPECT(t && strcmp(t->params, "BM=256,BN=128") == 0);
    t = tuning_lookup(&db, "GPU X", "1.0", NULL, 4096, 4096, 4096, NULL);
    EXPECT(t && strcmp(t->algorithm, "warp_tiled") == 0); /* auto: fastest at that size */
    t = tuning_lookup(&db, "GPU X", "1.0", NULL, 4096, 4096, 4096, not_warp_tiled);
    EXPECT(t && strcmp(t->algorithm, "tiled") == 0); /* ... among those accepted */
    EXPECT(tuning_lookup(&db, "GPU Y", "1.0", "warp_tiled", 64, 64, 64, NULL) == NULL);
    /* Anything else is refused or partly read, never read past its end. */
    const char *bad[] = { "", "{", "[]", "{\"entries\": [", "{\"format\": 3}", "nul",
                          "{\"format\": \"clgemm-tuning-1\", \"entries\": [{\"M\": \"",
                          "{\"a\":" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t before = db.count;
        EXPECT(tuning_parse(&db, bad[i], strlen(bad[i]), 0) <= 0 && db.count == before);
    }
    /* A malformed entry costs only itself: wrong types, a size that is not whole, a field
     * too long to keep whole, a NUL inside a name. */
    const char *mixed =
        "{\"format\": \"clgemm-tuning-1\", \"entries\": [7, [],\n"
        " {\"device\": \"D\", \"algorithm\": \"a\", \"params\": \"P\", \"M\": \"8\", \"N\": 8,"
        "  \"K\": 8, \"gflops\": 1},\n"
        " {\"device\": \"D\", \"algorithm\": \"a\", \"params\": \"P\", \"M\": 8.5, \"N\": 8,"
        "  \"K\": 8, \"gflops\": 1},\n"
        " {\"device\": \"D\\u0000X\", \"algorithm\": \"a\", \"params\": \"P\", \"M\": 8,"
        "  \"N\": 8, \"K\": 8, \"gflops\": 1},\n"
        " {\"device\": \"D\", \"algorithm\": \"a\", \"params\": \"P\", \"M\": 8, \"N\": 8,"
        "  \"K\": 8, \"gflops\": -1},\n"
        " {\"device\": \"D\", \"algorithm\": \"a\", \"params\": \"P\", \"M\": 8.0, \"N\": 8,"
        "  \"K\": 8, \"gflops\": 2}]}\n";
    tuning_db mixed_db = { 0 };
    EXPECT(tuning_parse(&mixed_db, mixed, strlen(mixed), 0) == 1 && mixed_db.count == 1 &&
           mixed_db.items[0].M == 8 && mixed_db.items[0].gflops == 2 &&
           mixed_db.items[0].driver[0] == '\0');
    tuning_free(&mixed_db);
    char long_params[400];
    snprintf(long_params, sizeof long_params,
             "{\"format\": \"clgemm-tuning-1\", \"entries\": [{\"device\": \"D\", "
             "\"algorithm\": \"a\", \"M\": 8, \"N\": 8, \"K\": 8, \"gflops\": 1, "
             "\"params\": \"%0200d\"}]}",
             1);
    EXPECT(tuning_parse(&mixed_db, long_params, strlen(long_params), 0) == 0 &&
           mixed_db.count == 0);
    /* One document, nothing after it. */
    const char *two = "{\"format\": \"clgemm-tuning-1\"} {}";
    EXPECT(tuning_parse(&mixed_db, two, strlen(two), 0) == -1 && mixed_db.count == 0);
    tuning_free(&mixed_db);
    for (size_t cut = 0; cut < strlen(text); cut += 7) {
        tuning_db part = { 0 };
        EXPECT(tuning_parse(&part, text, cut, 0) <= 4);
        tuning_free(&part);
    }
    tuning_free(&db);
    /* Every shipped file is a tuning file with entries. */
    extern const struct embedded_kernel embedded_tuning[];
    int files = 0;
    for (const struct embedded_kernel *k = embedded_tuning; k->name; k++, files++) {
        tuning_db shipped = { 0 };
        int n = tuning_parse(&shipped, k->source, strlen(k->source), 1);
        EXPECT(n > 0);
        if (n <= 0)
            fprintf(stderr, "  tuning/%s does not parse\n", k->name);
        tuning_free(&shipped);
    }
    EXPECT(files >= 1);
}

/* ---- 16-bit formats: conversions bit for bit, --dtype, tolerances -------------------- */

static float from_bits(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* The conversion `to` rounds x to nearest, ties to even: no neighbour of the result is
 * closer, and on a tie the result's last bit is 0.  Neighbours are the adjacent bit patterns
 * of the same sign (the encodings are monotonic in magnitude). */
static bool rounds_to_nearest_even(float x, uint16_t (*to)(float), float (*back)(uint16_t),
                                   uint16_t inf)
{
    uint16_t h = to(x), mag = h & 0x7fffu, sign = h & 0x8000u;
    double v = back(h), d = fabs((double)x - v);
    if (mag > inf)
        return false; /* NaN from a finite input */
    if (mag == inf) { /* infinity: x must be at least halfway past the largest finite value */
        double top = back((uint16_t)(inf - 1)), next = 2.0 * top - back((uint16_t)(inf - 2));
        return isinf(x) || fabs((double)x) >= (top + next) / 2.0;
    }
    for (int step = -1; step <= 1; step += 2) {
        if ((step < 0 && mag == 0) || (step > 0 && mag >= inf))
            continue;
        uint16_t n = (uint16_t)(sign | (mag + step));
        /* Beyond the largest finite value, infinity stands for the next value up. */
        double nv = (n & 0x7fffu) == inf ? copysign(2.0 * back((uint16_t)(n - 1)) -
                                                        back((uint16_t)(n - 2)), x)
                                         : back(n);
        double nd = fabs((double)x - nv);
        if (nd < d || (nd == d && (h & 1u)))
            return false;
    }
    return true;
}

static uint16_t to_f16(float x) { return f32_to_f16_bits(x); }
static uint16_t to_bf16(float x) { return f32_to_bf16_bits(x); }
static float back_f16(uint16_t h) { return f16_bits_to_f32(h); }
static float back_bf16(uint16_t h) { return bf16_bits_to_f32(h); }

static void test_dtype_conversions(void)
{
    /* Every 16-bit pattern: decoded against the format's definition, and round-tripped. */
    int bad_f16 = 0, bad_bf16 = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        uint32_t exp = (h >> 10) & 31u, man = h & 1023u;
        double want = exp == 0 ? man * 0x1.0p-24 : ldexp(1024.0 + man, (int)exp - 25);
        float got = f16_bits_to_f32((uint16_t)h);
        if (exp == 31) {
            bad_f16 += man == 0 ? !(isinf(got) && (signbit(got) != 0) == (h >> 15))
                                : !isnan(got) || !isnan(from_bits(0x7f800000u | man << 13));
            bad_f16 += man != 0 && !(((f32_to_f16_bits(got) & 0x7c00u) == 0x7c00u) &&
                                     (f32_to_f16_bits(got) & 0x3ffu));
        } else {
            bad_f16 += (double)got != (h & 0x8000u ? -want : want);
            bad_f16 += f32_to_f16_bits(got) != h;
        }
        float b = bf16_bits_to_f32((uint16_t)h);
        uint32_t bu;
        memcpy(&bu, &b, 4);
        bad_bf16 += bu != h << 16;
        bad_bf16 += isnan(b) ? !isnan(bf16_bits_to_f32(f32_to_bf16_bits(b)))
                             : f32_to_bf16_bits(b) != h;
    }
    EXPECT(bad_f16 == 0);
    EXPECT(bad_bf16 == 0);

    /* Fixed cases: ties, the subnormal and overflow edges, signs, NaN. */
    struct { float x; uint16_t f16, bf16; } cases[] = {
        { 1.0f, 0x3c00, 0x3f80 },
        { -0.0f, 0x8000, 0x8000 },
        { 1.0f + 0x1.0p-11f, 0x3c00, 0x3f80 },         /* f16 tie -> even */
        { 1.0f + 3 * 0x1.0p-11f, 0x3c02, 0x3f80 },     /* f16 tie -> even (up) */
        { 1.0f + 0x1.0p-8f, 0x3c04, 0x3f80 },          /* bf16 tie -> even */
        { 1.0f + 3 * 0x1.0p-8f, 0x3c0c, 0x3f82 },      /* bf16 tie -> even (up) */
        { 65504.0f, 0x7bff, 0x4780 },                  /* largest f16 */
        { 65519.0f, 0x7bff, 0x4780 },
        { 65520.0f, 0x7c00, 0x4780 },                  /* tie to the missing even: inf */
        { -1e10f, 0xfc00, 0xd015 },
        { 0x1.0p-14f, 0x0400, 0x3880 },                /* smallest normal f16 */
        { 0x1.0p-24f, 0x0001, 0x3380 },                /* smallest subnormal f16 */
        { 0x1.0p-25f, 0x0000, 0x3300 },                /* half of it: tie -> even 0 */
        { 0x1.000002p-25f, 0x0001, 0x3300 },           /* just above: 1 */
        { 3 * 0x1.0p-25f, 0x0002, 0x33c0 },            /* 1.5 ulps: tie -> even 2 */
        { 1023.5f * 0x1.0p-24f, 0x0400, 0x3880 },      /* tie between 0x3ff and 0x400 */
        { -1000.0f * 0x1.0p-24f, 0x83e8, 0xb87a },
        { from_bits(0x7f7fffffu), 0x7c00, 0x7f80 },    /* FLT_MAX: bf16 rounds up to inf */
        { from_bits(0x7f7f7fffu), 0x7c00, 0x7f7f },
        { from_bits(0x00008000u), 0x0000, 0x0000 },    /* float subnormal, bf16 tie -> 0 */
        { from_bits(0x00018000u), 0x0000, 0x0002 },    /* bf16 tie -> even 2 */
        { INFINITY, 0x7c00, 0x7f80 },
        { -INFINITY, 0xfc00, 0xff80 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint16_t h = f32_to_f16_bits(cases[i].x), b = f32_to_bf16_bits(cases[i].x);
        EXPECT(h == cases[i].f16);
        EXPECT(b == cases[i].bf16);
        if (h != cases[i].f16 || b != cases[i].bf16)
            fprintf(stderr, "  case %zu (%a): f16 %04x (want %04x), bf16 %04x (want %04x)\n", i,
                    (double)cases[i].x, h, cases[i].f16, b, cases[i].bf16);
    }
    uint16_t n16 = f32_to_f16_bits(NAN), nb = f32_to_bf16_bits(-NAN);
    EXPECT((n16 & 0x7c00u) == 0x7c00u && (n16 & 0x3ffu) != 0);
    EXPECT((nb & 0x7f80u) == 0x7f80u && (nb & 0x7fu) != 0 && (nb & 0x8000u));
    EXPECT(isnan(f16_bits_to_f32(f32_to_f16_bits(from_bits(0x7f800001u))))); /* signalling */

    /* Nearest-even on random floats across the whole exponent range. */
    uint64_t s = 12345;
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        float x = from_bits((uint32_t)(s >> 32));
        if (isnan(x))
            continue;
        bad += !rounds_to_nearest_even(x, to_f16, back_f16, 0x7c00);
        bad += !rounds_to_nearest_even(x, to_bf16, back_bf16, 0x7f80);
        /* and values near f16's range, where its subnormals and overflow live */
        float y = ldexpf(x - truncf(x), (int)(s % 48) - 30);
        bad += !rounds_to_nearest_even(y, to_f16, back_f16, 0x7c00);
    }
    EXPECT(bad == 0);
    if (bad)
        fprintf(stderr, "  %d random floats not rounded to nearest even\n", bad);
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

/* What each name runs where (gemm_plan_describe builds nothing): hardware first, the
 * emulation only when asked for, purpose names through their candidates, 16-bit data on the
 * kernels that take it; and unknown parameter keys refused with the keys there are. */
static void test_variant_choice(void)
{
    device_info nv8 = fake(0, 0, CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA A100");
    device_info nv9 = fake(0, 1, CL_DEVICE_TYPE_GPU, "NVIDIA CUDA", "NVIDIA H100 80GB HBM3");
    device_info cpu = fake(1, 0, CL_DEVICE_TYPE_CPU, "Portable Computing Language", "cpu");
    nv8.nv_cc_major = 8;
    nv9.nv_cc_major = 9;
    cpu.nv_cc_major = -1;
    nv8.max_work_group = nv9.max_work_group = cpu.max_work_group = 1024;
    gemm_plan g;
    errbuf e = { "" };
    unsetenv("CLGEMM_EMULATE_MATRIX");
    EXPECT(gemm_plan_describe(&g, &nv8, algo_find("tensor_core"), CLGEMM_BF16, NULL, &e) ==
               PLAN_OK && strcmp(g.step->desc.name, "mma") == 0 &&
           strcmp(g.precision, "bf16") == 0 && strcmp(g.variant->backend, "nvidia mma.sync") == 0 &&
           g.variant->ld_multiple == 8);
    EXPECT(gemm_plan_describe(&g, &nv8, algo_find("tensor_core"), CLGEMM_F32, NULL, &e) ==
               PLAN_OK && strcmp(g.precision, "tf32") == 0);
    EXPECT(gemm_plan_describe(&g, &nv9, algo_find("wgmma"), CLGEMM_F16, NULL, &e) == PLAN_OK &&
           strcmp(g.variant->backend, "nvidia wgmma (sm_90a)") == 0 && g.local[0] == 256);
    EXPECT(gemm_plan_describe(&g, &nv8, algo_find("wgmma"), CLGEMM_F16, NULL, &e) ==
               PLAN_UNSUPPORTED && strstr(e.msg, "9.x"));
    EXPECT(gemm_plan_describe(&g, &nv9, algo_find("wgmma"), CLGEMM_F32, NULL, &e) ==
               PLAN_UNSUPPORTED && strstr(e.msg, "takes no f32 data"));
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("mma"), CLGEMM_F32, NULL, &e) ==
               PLAN_UNSUPPORTED && strstr(e.msg, "needs matrix hardware"));
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("tensor_core"), CLGEMM_F32, NULL, &e) ==
               PLAN_UNSUPPORTED && strstr(e.msg, "needs matrix hardware"));
    EXPECT(gemm_plan_describe(&g, &nv9, algo_find("tensor_core_tf32x3"), CLGEMM_F16, NULL, &e) ==
               PLAN_UNSUPPORTED && strstr(e.msg, "takes no f16 data"));
    setenv("CLGEMM_EMULATE_MATRIX", "1", 1);
    /* the emulation runs the portable lesson for a purpose name, and any step by name */
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("tensor_core"), CLGEMM_F32, NULL, &e) ==
               PLAN_OK && strcmp(g.step->desc.name, "mma") == 0 &&
           strcmp(g.variant->backend, "emulated mma.sync") == 0);
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("tensor_core_tf32x3"), CLGEMM_F32, NULL, &e) ==
               PLAN_OK && strcmp(g.precision, "tf32x3") == 0 &&
           params_get(&g.params, "SPLIT", 0) == 1);
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("wgmma_tma"), CLGEMM_F32, NULL, &e) ==
               PLAN_OK && strcmp(g.precision, "tf32") == 0 && g.pack_a &&
           g.local[0] == 2 * 128 + 32);
    /* A truncated by the tensor core: its own, wider bound */
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("wgmma_tma"), CLGEMM_F32, "PACKA=0", &e) ==
               PLAN_OK && strcmp(g.precision, "tf32t") == 0 && !g.pack_a);
    /* A rounded in registers: no pass over A, the arithmetic of the pre-pass */
    EXPECT(gemm_plan_describe(&g, &cpu, algo_find("wgmma_tma"), CLGEMM_F32, "PACKA=3", &e) ==
               PLAN_OK && strcmp(g.precision, "tf32") == 0 && !g.pack_a && g.pack_b);
    /* real hardware wins over the emulation */
    EXPECT(gemm_plan_describe(&g, &nv8, algo_find("mma"), CLGEMM_F32, NULL, &e) == PLAN_OK &&
           strcmp(g.variant->backend, "nvidia mma.sync") == 0);
    unsetenv("CLGEMM_EMULATE_MATRIX");

    /* parameter keys: exact, known to the kernel, in range */
    EXPECT(gemm_params_check(algo_find("block_tiled"), "BM=64,BN=64", &e) == 0);
    EXPECT(gemm_params_check(algo_find("block_tiled"), "bm=64", &e) == -1 &&
           strstr(e.msg, "'bm'") && strstr(e.msg, "BM=128"));
    EXPECT(gemm_params_check(algo_find("tiled"), "FOO=3", &e) == -1 && strstr(e.msg, "'FOO'"));
    EXPECT(gemm_params_check(algo_find("tiled"), "BM=70000", &e) == -1 && strstr(e.msg, "range"));
    EXPECT(gemm_params_check(algo_find("tensor_core"), "SPLIT=1", &e) == 0);
    EXPECT(gemm_plan_describe(&g, &nv8, algo_find("block_tiled"), CLGEMM_F32, "bm=64", &e) ==
               PLAN_INVALID && strstr(e.msg, "its parameters: BM BN BK TM TN"));
    EXPECT(clgemm_check_algorithm("block_tiled:bm=64") == CLGEMM_ERROR_INVALID_ARGUMENT &&
           strstr(clgemm_last_error(), "clgemm_check_algorithm") &&
           strstr(clgemm_last_error(), "'bm'"));
    EXPECT(clgemm_check_algorithm("warp_tiled:BM=64,CLAMP=1") == CLGEMM_SUCCESS);
    EXPECT(clgemm_check_algorithm("wgmma_tma_packed") == CLGEMM_ERROR_UNKNOWN_ALGORITHM);
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
    test_tuning();
    test_cache_entry();
    test_parse_size();
    test_cli();
    test_params();
    test_registry();
    test_device_select();
    test_check();
    test_check_layouts();
    test_dtype_conversions();
    test_dtype_cli();
    test_dtype_tolerance();
    test_variant_choice();
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
