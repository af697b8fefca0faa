/* The cl/ tree, embedded at build time by tools/embed_kernels.py. */
#ifndef CLGEMM_KERNEL_SOURCES_H
#define CLGEMM_KERNEL_SOURCES_H

struct embedded_kernel {
    const char *name;   /* file name under cl/ */
    const char *source; /* its text */
};

/* Terminated by a { NULL, NULL } row. */
extern const struct embedded_kernel embedded_kernels[];
/* The tuning defaults shipped in tuning/ (*.json). */
extern const struct embedded_kernel embedded_tuning[];

#endif
