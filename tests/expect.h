/* The unit tests' one check: EXPECT(cond) counts it and, where cond is false, counts a failure
 * and says where, on stderr.  Each test prints its totals from `checks` and `failures`. */
#ifndef CLGEMM_TESTS_EXPECT_H
#define CLGEMM_TESTS_EXPECT_H

#include <stdio.h>

static int checks, failures;

#define EXPECT(cond)                                                                        \
    do {                                                                                    \
        checks++;                                                                           \
        if (!(cond)) {                                                                      \
            failures++;                                                                     \
            fprintf(stderr, "FAIL %s:%d: expected %s\n", __FILE__, __LINE__, #cond);        \
        }                                                                                   \
    } while (0)

#endif
