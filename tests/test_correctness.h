/* What the files of test_correctness share (test_correctness.c has the modes' usage): the
 * counts every mode prints at its end, the one way a case is run and checked, and the
 * device, so that each mode in its own file runs and counts its cases the same way. */
#ifndef CLGEMM_TEST_CORRECTNESS_H
#define CLGEMM_TEST_CORRECTNESS_H

#include <stdbool.h>
#include <stddef.h>

#include "runner.h"

/* Cases run and cases failed, over the whole run (test_correctness_case.c). */
extern int cases, failed;

/* One algorithm on one problem, checked against the full reference; what the case was is
 * `what`.  Counts it, and prints its row. */
void run_request_case(session *s, const char *algo, run_request req, const char *what);

/* The device of $CLGEMM_TEST_DEVICE (else PoCL); 0, or -1 with the reason on stderr. */
int open_session(session **s);

/* skinny mode, and `skinny full` (test_correctness_skinny.c): the exit status. */
int skinny_main(bool full);

/* layouts mode (test_correctness_layouts.c): the cases of shard `shard` of `shards` for the
 * algorithms of the run in their order; `every` (no algorithm named) adds the swapped, READT
 * and TSTORE forms after them. */
void layouts_cases(session *s, const char *const *algos, size_t nalgos, int shard, int shards,
                   bool every);

#endif
