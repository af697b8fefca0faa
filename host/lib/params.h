/* Tile parameters: "BM=128 BN=128 ..." as text, as -D options, and as numbers. */
#ifndef CLGEMM_PARAMS_H
#define CLGEMM_PARAMS_H

#include <stddef.h>

#include "clerr.h"

#define PARAMS_MAX 16

typedef struct params {
    struct {
        char key[16];
        long value;
    } kv[PARAMS_MAX];
    int count;
} params;

/* Adds "KEY=VALUE" pairs separated by spaces; a key already present is overridden, so
 * parsing the registry defaults and then user overrides into one set merges them. */
int params_parse(params *p, const char *text, errbuf *e);
long params_get(const params *p, const char *key, long fallback);
/* "-DBM=128 -DBN=128" */
void params_to_defines(const params *p, char *out, size_t size);
/* "BM=128 BN=128" */
void params_to_text(const params *p, char *out, size_t size);
/* `text` ("BM=64,SWAP=1", as an algorithm name writes it) with KEY set to VALUE, in place
 * where the text names it, else last: "BM=64,SWAP=0".  -1 where the text does not parse or
 * out is too short.  out may be text itself. */
int params_with(const char *text, const char *key, long value, char *out, size_t size);

#endif
