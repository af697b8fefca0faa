/* The TMA copies of one K slice for cl/10_wgmma_tma.cl, included after its definitions (the
 * boxes' shapes and corners, A_X .. B_Y, and the slot layout). */
#ifndef CLGEMM_TMA_COPIES_H
#define CLGEMM_TMA_COPIES_H

/* The copies of slice i into the slot at byte address dst: A's box, with SPLIT A's and B^T's
 * lo boxes (rows M.. of packed A, unless PACKA 3 splits A in registers; N.. of packed B^T,
 * unless PACKB 2 splits B in the slot), then B's boxes.  The copy engine's own, or each
 * work-item's share of them in the emulation (which reads A and B directly). */
#if !CLGEMM_EMULATE_TMA && GEMM_BATCHED
/* A batch: 3-D maps, the problem (the kernel's prob) the third coordinate (0 in a shared
 * operand's one-deep map) */
#define COPY_A(dst, x, y) TMA_LOAD_3D(dst, maps, x, y, strideA ? prob : 0, full)
#define COPY_B(dst, x, y)                                                                    \
    TMA_LOAD_3D(dst, maps + 128, x, y, strideB ? prob : 0, full)
#elif !CLGEMM_EMULATE_TMA
#define COPY_A(dst, x, y) TMA_LOAD_2D(dst, maps, x, y, full)
#define COPY_B(dst, x, y) TMA_LOAD_2D(dst, maps + 128, x, y, full)
#else
#define COPY_A(dst, x, y)                                                                    \
    tma_emu_load_2d(wgmma_arena_w_, dst, (__global const uchar *)(A + offA), lda,            \
                    A_MN ? K : M * A_HALVES, A_MN ? M : K, x, y, A_BOX_ROWS, A_BOX_COLS,     \
                    ELEM, (uint)(A_BOX_COLS * ELEM), tid, TMA_THREADS)
#define COPY_B(dst, x, y)                                                                    \
    tma_emu_load_2d(wgmma_arena_w_, dst, (__global const uchar *)(B + offB), ldb,            \
                    B_MN ? K : N * (1 + SPLIT - B_SPLIT_LOCAL), B_MN ? N : K, x, y,           \
                    b_box_rows, B_BOX_COLS, ELEM, (uint)(B_BOX_COLS * ELEM), tid, TMA_THREADS)
#endif
#define TMA_COPY_SLICE(i, dst)                                                               \
    do {                                                                                     \
        _Pragma("unroll") for (int q = 0; q < A_BOXES; ++q)                                  \
            COPY_A((dst) + (uint)(q * A_BOX1), A_X(i, q), A_Y(i, q));                        \
        if (A_HALVES > 1)                                                                    \
            COPY_A((dst) + (uint)A_BOX, (i) * BK, M + row0);                                 \
        if (SPLIT && !B_SPLIT_LOCAL)                                                         \
            COPY_B((dst) + (uint)(A_BYTES + B_BOX), (i) * BK, N + col0);                     \
        _Pragma("unroll") for (int q = 0; q < B_BOXES; ++q)                                  \
            COPY_B((dst) + (uint)(A_BYTES + q * B_BOX), B_X(i, q), B_Y(i, q));               \
    } while (0)

#endif
