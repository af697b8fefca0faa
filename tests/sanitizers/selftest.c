/* Proves that the sanitizer configuration can fail: in a -Db_sanitize=address,undefined build,
 * under the 'sanitize' test setup (with its suppressions), each planted bug must be reported.
 * OpenCL is initialised first, so PoCL's own (suppressed) leaks are present as they are in the
 * real tests.     usage: sanitizer_selftest clean|leak|overflow|ub */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl.h>

void *volatile sink;

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    cl_uint n = 0;
    clGetPlatformIDs(0, NULL, &n);
    printf("%u OpenCL platform(s)\n", n);
    const char *mode = argv[1];
    if (strcmp(mode, "clean") == 0)
        return 0;
    if (strcmp(mode, "leak") == 0) {
        sink = malloc(4096);
        sink = NULL;
        return 0;
    }
    if (strcmp(mode, "overflow") == 0) {
        size_t len = strlen(mode); /* a size the compiler does not know */
        char *p = malloc(len);
        sink = p;
        memcpy(p, mode, len);
        volatile char c = p[len]; /* one past the end */
        free(p);
        return c;
    }
    if (strcmp(mode, "ub") == 0) {
        volatile int x = INT_MAX;
        x += argc; /* signed overflow */
        return x == 0;
    }
    return 2;
}
