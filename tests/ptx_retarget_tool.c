/* ptx_retarget_tool IN.ptx > OUT.ptx: the sm_90a post-pass of host/lib/ptx_retarget.h on a file,
 * for tests/test_wgmma_ptxas.sh.  Exit 1 with the reason when the pass refuses the text. */
#include <stdio.h>
#include <stdlib.h>

#include "ptx_retarget.h"

int main(int argc, char **argv)
{
    FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
    if (!f) {
        fprintf(stderr, "usage: ptx_retarget_tool IN.ptx > OUT.ptx\n");
        return 2;
    }
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0)
        if ((len += n) == cap)
            buf = realloc(buf, cap *= 2);
    fclose(f);
    errbuf e = { "" };
    size_t out_len;
    int markers;
    char *out = buf ? ptx_retarget_sm90a(buf, len, &out_len, &markers, &e) : NULL;
    if (!out) {
        fprintf(stderr, "ptx_retarget_tool: %s\n", buf ? e.msg : "out of memory");
        return 1;
    }
    fprintf(stderr, "ptx_retarget_tool: %d marker lines became instructions\n", markers);
    fwrite(out, 1, out_len, stdout);
    free(out);
    free(buf);
    return 0;
}
