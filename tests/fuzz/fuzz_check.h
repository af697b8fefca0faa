/* Shared by the fuzz targets: a violated property prints the input and aborts, which
 * libFuzzer (or the replay driver) reports as a crash with the input saved. */
#ifndef CLGEMM_FUZZ_CHECK_H
#define CLGEMM_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_fail(const char *file, int line, const char *what, const uint8_t *data,
                             size_t size)
{
    fprintf(stderr, "%s:%d: property violated: %s\ninput (%zu bytes):", file, line, what, size);
    for (size_t i = 0; i < size && i < 512; i++)
        fprintf(stderr, " %02x", data[i]);
    fprintf(stderr, "\n");
    abort();
}

#define FUZZ_CHECK(cond)                                                                     \
    do {                                                                                     \
        if (!(cond))                                                                         \
            fuzz_fail(__FILE__, __LINE__, #cond, data, size);                                \
    } while (0)

/* The input as a NUL-terminated string in its own allocation (so ASan sees reads past it). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    for (size_t i = 0; i < size; i++)
        s[i] = (char)data[i];
    s[size] = '\0';
    return s;
}

#endif
