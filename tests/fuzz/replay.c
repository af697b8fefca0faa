/* Runs a fuzz target's LLVMFuzzerTestOneInput on every file of the given files and
 * directories, without libFuzzer: the seed corpus and past crashes become ordinary
 * regression tests in every build (gcc, sanitizers).   usage: replay PATH... */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_check.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            unsigned char *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return -1;
    }
    /* An exact-size copy, so a read past the input is caught by ASan as with libFuzzer. */
    unsigned char *exact = malloc(len ? len : 1);
    if (!exact)
        abort();
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int files = 0, errors = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            errors++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            errors += run_file(argv[i]) != 0;
            files++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            errors++;
            continue;
        }
        char **names = NULL;
        size_t count = 0;
        struct dirent *ent;
        while ((ent = readdir(d))) {
            if (ent->d_name[0] == '.')
                continue;
            char **grown = realloc(names, (count + 1) * sizeof *names);
            if (!grown)
                abort();
            names = grown;
            size_t n = strlen(argv[i]) + strlen(ent->d_name) + 2;
            names[count] = malloc(n);
            if (!names[count])
                abort();
            snprintf(names[count++], n, "%s/%s", argv[i], ent->d_name);
        }
        closedir(d);
        qsort(names, count, sizeof *names, cmp);
        for (size_t j = 0; j < count; j++) {
            errors += run_file(names[j]) != 0;
            files++;
            free(names[j]);
        }
        free(names);
    }
    printf("replayed %d inputs, %d unreadable\n", files, errors);
    return errors || files == 0 ? 1 : 0;
}
