/* The operand layouts tests/test_wgmma.c places in local memory for one wgmma: where A and
 * B^T start and their descriptors' leading and stride byte offsets, plain (core matrices) and
 * swizzled (16-bit and tf32), and how far B reaches.  Included once, by test_wgmma.c, after
 * its KDIM (the values along K of one run). */
#ifndef CLGEMM_TESTS_WGMMA_TEST_LAYOUTS_H
#define CLGEMM_TESTS_WGMMA_TEST_LAYOUTS_H

/* A layout: where each operand starts, its LBO and SBO, for rows of A (64) or of B^T (n). */
typedef struct layout {
    const char *name;
    int a_at, a_lbo, a_sbo, b_at, b_lbo, b_sbo;
} layout;

static inline layout make_layout(int kind, int n)
{
    const int kc = KDIM / 4; /* core matrices along K */
    layout l;
    int a_bytes;
    switch (kind) {
    case 0: /* K-neighbours side by side, then the next 8 rows (as step 9's unswizzled A) */
        l = (layout){ "rows outer", 0, 128, kc * 128, 0, 128, kc * 128 };
        a_bytes = 8 * kc * 128;
        break;
    case 1: /* K outer: all 8-row groups of one K column of core matrices, then the next */
        l = (layout){ "K outer", 0, 8 * 128, 128, 0, n / 8 * 128, 128 };
        a_bytes = 8 * kc * 128;
        break;
    case 2: /* gaps between core matrices: strides that are not sizes */
        l = (layout){ "padded strides", 0, 144, kc * 144 + 64, 0, 176, kc * 176 + 32 };
        a_bytes = 8 * (kc * 144 + 64);
        break;
    default: /* as 2, starting 16 bytes past a 128-byte boundary */
        l = (layout){ "padded, 16-byte aligned start", 16, 144, kc * 144 + 64, 16, 176,
                      kc * 176 + 32 };
        a_bytes = 16 + 8 * (kc * 144 + 64);
        break;
    }
    l.b_at += (a_bytes + 127) / 128 * 128;
    return l;
}

/* Swizzled layouts (W bytes per atom row, E = W / 2 values): A 64 x 32, B 32 x n; every
 * region and stride a whole number of atoms (8 W bytes), starts 1024-byte aligned. */
static inline layout make_layout_swz(int kind, int n, int w)
{
    const int e = w / 2, a_panels = (2 * KDIM + e - 1) / e, b_panels = (n + e - 1) / e;
    layout l;
    if (kind == 0) /* dense: A panels of 64 rows, B panels of 32 k rows */
        l = (layout){ "swizzled, dense", 0, 64 * w, 8 * w, 0, 32 * w, 8 * w };
    else /* gaps: A's 8-row groups two atoms apart, B's panels an extra 1024 bytes apart */
        l = (layout){ "swizzled, padded", 0, 8 * 16 * w + 1024, 16 * w, 0, 32 * w + 1024,
                      8 * w };
    l.b_at = (a_panels * l.a_lbo + 1023) / 1024 * 1024;
    (void)b_panels;
    return l;
}

static inline int b_extent_swz(const layout *l, int n, int w)
{
    return l->b_at + ((n + w / 2 - 1) / (w / 2)) * l->b_lbo;
}

/* Swizzled tf32 layouts (W bytes per atom row, E = W / 4 values along K, both operands
 * K-major): A 64 x 16 and B^T n x 16 in panels of E values of K, a_lbo and b_lbo apart. */
static inline layout make_layout_swz32(int kind, int n, int w)
{
    const int e = w / 4, panels = (KDIM + e - 1) / e;
    layout l;
    if (kind == 0) /* dense: panels of 64 rows of A and n rows of B^T */
        l = (layout){ "swizzled tf32, dense", 0, 64 * w, 8 * w, 0, n * w, 8 * w };
    else /* gaps: 8-row groups two atoms apart, panels an extra 1024 bytes apart */
        l = (layout){ "swizzled tf32, padded", 0, 8 * 16 * w + 1024, 16 * w, 0,
                      n / 8 * 16 * w + 1024, 16 * w };
    l.b_at = (panels * l.a_lbo + 1023) / 1024 * 1024;
    return l;
}

static inline int b_extent_swz32(const layout *l, int w)
{
    return l->b_at + ((KDIM + w / 4 - 1) / (w / 4)) * l->b_lbo;
}

static inline int b_extent(const layout *l, int n)
{
    return l->b_at + (n / 8 - 1) * l->b_sbo + (KDIM / 4 - 1) * l->b_lbo + 128;
}

#endif
