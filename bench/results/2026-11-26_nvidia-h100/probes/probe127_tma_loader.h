/* LOADER = 1: step 10's slices copied by a warpgroup of work-items instead of the copy engine,
 * for 16-bit operands whose rows TMA cannot address.  Included by cl/10_wgmma_tma.cl (through
 * mma/tma_copies.h).
 *
 * Why.  A tensor map's rows must lie 16 bytes apart and start on 16 bytes, and a box may not
 * start off 16 bytes of its row.  A tight 16-bit matrix (1000 x 513, 4095 x 4095: an odd
 * leading dimension) breaks all three, so before this every such operand was copied to an
 * aligned scratch first: a pass over both operands (a third of the time at 4095^3) and a
 * second launch (half the time of a small call).  Here the copy happens where TMA's would:
 * 128 work-items (the loaders, where the producer warp was) read each slot's boxes with
 * ordinary loads and write them in wgmma's swizzled layout, so the consumers, the ring and
 * its mbarriers stay exactly as they are.  A slot is full when every loader has arrived on
 * its mbarrier (TMA counts bytes instead), each after a proxy fence: wgmma reads local memory
 * through the async proxy, which sees the loaders' ordinary stores only across that fence.
 *
 * How a 16-byte chunk of 8 values is read off alignment.  A box row's chunks start at
 * multiples of 8 values from the box's corner, so all chunks of one matrix row share the
 * row's misalignment, (start of row) mod 16 bytes, an even number of bytes.  The chunk is
 * the 16 bytes at that shift inside the two aligned 16-byte blocks around it: two vector loads
 * (one where the row is aligned) and a shift across eight words, no per-value load.  The
 * warp's lanes take consecutive chunks of a row, so its loads cover whole lines.  A chunk
 * whose two blocks would reach past the matrix's last value (the buffer may end there), or
 * that crosses the matrix's last column, or lies outside it, is read value by value, zeros
 * outside the matrix as TMA writes them.
 *
 * The emulation runs the same copy with every work-item of the group (CLGEMM_EMULATE_TMA), so
 * the tests on a CPU check the shifts, edges and swizzle that the GPU runs. */
#ifndef CLGEMM_TMA_LOADER_H
#define CLGEMM_TMA_LOADER_H

/* The loaders alone (named barrier 4; the consumers use 1 to 3). */
#define TMA_LOADERS_SYNC() asm volatile("bar.sync 4, 128;" ::: "memory")

/* Chunks whose loads a loader issues before it waits for the first: enough bytes in flight to
 * cover the latency. */
#ifndef TMA_LD_BATCH
#define TMA_LD_BATCH 8
#endif

/* The 16 bytes at byte sh (even, 0 .. 14) of the 32 in lo:hi. */
inline uint4 tma_ld_shift(const uint4 lo, const uint4 hi, const uint sh)
{
    const uint q = sh >> 2; /* whole words to skip */
    /* words q .. q + 4 of lo:hi, then shifted right by 16 bits where sh is not a multiple of 4 */
    const uint4 a = q == 0u ? lo : q == 1u ? (uint4)(lo.yzw, hi.x)
                 : q == 2u ? (uint4)(lo.zw, hi.xy) : (uint4)(lo.w, hi.xyz);
    const uint4 b = q == 0u ? (uint4)(lo.yzw, hi.x) : q == 1u ? (uint4)(lo.zw, hi.xy)
                 : q == 2u ? (uint4)(lo.w, hi.xyz) : hi;
    return (sh & 2u) ? (a >> 16) | (b << 16) : a;
}

/* This loader's share (work-item id of n) of one operand's boxes in a slot: `boxes` boxes of
 * box_rows x box_cols values side by side from column x, row y of the rows x cols matrix m
 * (ld values between rows), box q at byte dst + q * box_rows * box_cols * 2 of the arena, in
 * rows of box_cols values swizzled at their byte width, as TMA_LOAD_2D writes them.  The
 * geometry is the kernel's constants, so the divisions below are shifts.  Each round issues
 * the loads of TMA_LD_BATCH chunks, none waiting for another (nothing in the first loop reads
 * a loaded value), then shifts and stores them. */
inline void tma_ld_boxes(__local uchar *arena, const uint dst, __global const ushort *m,
                         const int ld, const int rows, const int cols, const int x, const int y,
                         const uint boxes, const uint box_rows, const uint box_cols, const uint id,
                         const uint n)
{
    const uint per_row = box_cols / 8u, per_box = box_rows * per_row;
    const uint total = boxes * per_box;
    /* The first byte no whole read may reach: the matrix's last value ends there. */
    const size_t end = (size_t)(m + (size_t)(rows - 1) * ld + cols);
    for (uint c0 = id; c0 < total; c0 += n * TMA_LD_BATCH) {
        __global const ushort *p[TMA_LD_BATCH];
        uint4 lo[TMA_LD_BATCH], hi[TMA_LD_BATCH];
        uint to[TMA_LD_BATCH];
        int valid[TMA_LD_BATCH]; /* values inside the matrix, read one by one; -1: read whole */
#pragma unroll
        for (int u = 0; u < TMA_LD_BATCH; ++u) {
            const uint c = c0 + (uint)u * n, q = c / per_box, j = c - q * per_box;
            const uint r = j / per_row, x8 = (j - r * per_row) * 8u;
            const int row = y + (int)r, col = x + (int)(q * box_cols + x8);
            to[u] = wgmma_swz(dst + (q * per_box + j) * 16u, box_cols * 2u);
            const bool in = c < total && row < rows && col < cols;
            p[u] = m + (in ? (size_t)row * ld + col : 0);
            const size_t at = (size_t)p[u], blk = at & ~(size_t)15;
            const bool whole = in && col + 8 <= cols && blk + ((at & 15) ? 32 : 16) <= end;
            valid[u] = whole ? -1 : in ? min(cols - col, 8) : 0;
            lo[u] = whole ? ((__global const uint4 *)blk)[0] : (uint4)(0u);
            hi[u] = whole && (at & 15) ? ((__global const uint4 *)blk)[1] : (uint4)(0u);
        }
#pragma unroll
        for (int u = 0; u < TMA_LD_BATCH; ++u) {
            if (c0 + (uint)u * n >= total)
                break;
            uint4 v = tma_ld_shift(lo[u], hi[u], (uint)((size_t)p[u] & 15));
            if (valid[u] >= 0) { /* at an edge of the matrix: value by value, zeros outside */
                ushort e[8];
                for (int t = 0; t < 8; ++t)
                    e[t] = t < valid[u] ? p[u][t] : (ushort)0;
                v = (uint4)(e[0] | (uint)e[1] << 16, e[2] | (uint)e[3] << 16,
                            e[4] | (uint)e[5] << 16, e[6] | (uint)e[7] << 16);
            }
            *(__local uint4 *)(arena + to[u]) = v;
        }
    }
}

/* Slice i's slot at byte dst of the arena: A's boxes, then B's (as TMA_COPY_SLICE). */
#define TMA_LD_SLICE(i, dst, a, lda, a_rows, a_cols, b, ldb, b_rows, b_cols, id, n)          \
    do {                                                                                     \
        tma_ld_boxes(wgmma_arena_w_, dst, a, lda, a_rows, a_cols, A_X(i, 0), A_Y(i, 0),      \
                     A_BOXES, A_BOX_ROWS, A_BOX_COLS, id, n);                                \
        tma_ld_boxes(wgmma_arena_w_, (dst) + A_BYTES, b, ldb, b_rows, b_cols, B_X(i, 0),     \
                     B_Y(i, 0), B_BOXES, B_BOX_ROWS, B_BOX_COLS, id, n);                     \
    } while (0)

#endif
