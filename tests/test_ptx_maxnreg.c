/* Unit tests of the register cap written into PTX (host/lib/ptx_maxnreg.h): strings only. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_maxnreg.h"
#include "expect.h"

/* The pass over text must give want (NULL: fail with an error containing want_err). */
static void check(const char *what, const char *text, int cap, const char *want, int want_entries,
                  const char *want_err)
{
    errbuf e = { "" };
    size_t out_len = 0;
    int entries = -1;
    char *out = ptx_cap_registers(text, strlen(text) + 1, cap, &out_len, &entries, &e);
    bool ok = want ? out && strcmp(out, want) == 0 && out_len == strlen(want) &&
                         entries == want_entries
                   : !out && strstr(e.msg, want_err) != NULL;
    EXPECT(ok);
    if (!ok)
        fprintf(stderr, "  in %s\n  got:  %s\n  want: %s\n  error: %s\n", what,
                out ? out : "(null)", want ? want : want_err, e.msg);
    free(out);
}

/* The shape of what NVIDIA's OpenCL compiler writes for a kernel with reqd_work_group_size. */
#define HEAD ".version 8.8\n.target sm_90, texmode_independent\n.address_size 64\n\n"
#define ENTRY(name)                                                                          \
    "\t// .globl\t" name "\n.entry " name "(\n\t.param .u32 " name "_param_0,\n"              \
    "\t.param .u64 .ptr .global .align 4 " name "_param_1\n)\n.reqntid 32, 8, 1\n"
#define BODY "{\n\t.reg .b32 \t%r<4>;\n\tret;\n}\n"

static void test_caps(void)
{
    check("one entry", HEAD ENTRY("gemm_warp_tiled") BODY, 128,
          HEAD ENTRY("gemm_warp_tiled") ".maxnreg 128\n" BODY, 1, NULL);
    check("two entries, .visible", HEAD ENTRY("a") BODY ".visible .entry b(\n)\n{\n}\n", 96,
          HEAD ENTRY("a") ".maxnreg 96\n" BODY ".visible .entry b(\n)\n.maxnreg 96\n{\n}\n", 2,
          NULL);
    check("CRLF kept", ".entry k(\r\n)\r\n  {\r\n}\r\n", 64,
          ".entry k(\r\n)\r\n.maxnreg 64\r\n  {\r\n}\r\n", 1, NULL);
    /* A brace inside the body or a later function's is not the entry's. */
    check("only the first brace", ".func f(\n)\n{\n}\n.entry k(\n)\n{\n{\n}\n}\n", 128,
          ".func f(\n)\n{\n}\n.entry k(\n)\n.maxnreg 128\n{\n{\n}\n}\n", 1, NULL);
    check("an .entry-like name is not one", ".entryx k(\n)\n{\n}\n", 128, NULL, 0, "no .entry");
}

static void test_refusals(void)
{
    check("cap too small", HEAD ENTRY("k") BODY, 15, NULL, 0, "16 to 255");
    check("cap too large", HEAD ENTRY("k") BODY, 256, NULL, 0, "16 to 255");
    check("no entry", HEAD ".func f(\n)\n{\n}\n", 128, NULL, 0, "no .entry");
    check("entry without body", HEAD ".entry k(\n)\n", 128, NULL, 0, "no body");
    check("entry without body, then one with", HEAD ".entry k(\n)\n.entry j(\n)\n{\n}\n", 128,
          NULL, 0, "no body");
    check("cap already there", HEAD ".entry k(\n)\n.maxnreg 64\n{\n}\n", 128, NULL, 0,
          "already has a .maxnreg");
    /* The text ends at its NUL: an entry past it is not seen. */
    static const char cut[] = ".entry k(\n)\n{\n}\n\0.entry j(\n)\n";
    errbuf e = { "" };
    size_t n = 0;
    char *out = ptx_cap_registers(cut, sizeof cut, 128, &n, NULL, &e);
    EXPECT(out && strcmp(out, ".entry k(\n)\n.maxnreg 128\n{\n}\n") == 0);
    free(out);
}

int main(void)
{
    test_caps();
    test_refusals();
    printf("test_ptx_maxnreg: %d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
