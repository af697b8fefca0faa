/* Hopper's tensor memory accelerator (TMA) and mbarriers, for kernels built through the
 * sm_90a post-pass (CLGEMM_PTX_SM90A=1; see host/lib/ptx_retarget.h and host/lib/tensor_map.h).
 *
 * Why: cp.async makes every work-item compute addresses, issue 16-byte copies, apply the
 * swizzle by hand and wait on its own copies before a barrier tells the others.  One TMA
 * instruction, issued by one work-item, copies a whole 2-D box (up to 256 x 256 elements)
 * into local memory in wgmma's swizzled layout, zero-fills what lies outside the matrix,
 * and counts the bytes that landed on an mbarrier in local memory; the work-items that
 * need the data wait on that mbarrier's phase.  The copy engine works while the tensor
 * cores do, and no work-item spends registers or issue slots on addresses.
 *
 * An mbarrier completes a phase when its expected arrivals (set at init) have arrived and
 * the bytes announced with TMA_EXPECT have landed; waiters name the phase by its parity
 * (0, 1, 0, ...), so a ring of STAGES buffers waits on parity (use / STAGES) & 1.
 *
 * All addresses of local memory are 32-bit byte addresses in the shared window, as for
 * wgmma descriptors: (uint)(size_t) of a __local pointer.  map is a __global pointer to a
 * 128-byte tensor map (64-byte aligned) made by the host; x is the column (the contiguous
 * dimension) and y the row of the box's first element, which may lie outside the matrix
 * (those elements read as zero). */
#ifndef CLGEMM_TMA_H
#define CLGEMM_TMA_H

#define TMA_LOCAL_ADDR(p) ((uint)(size_t)(p))

/* Kernels that emulate wgmma (CLGEMM_EMULATE_WGMMA=1, any OpenCL device) emulate the copies
 * too: tma_emu_load_2d at the end, in place of everything before it. */
#ifndef CLGEMM_EMULATE_TMA
#if defined(CLGEMM_EMULATE_WGMMA) && CLGEMM_EMULATE_WGMMA
#define CLGEMM_EMULATE_TMA 1
#else
#define CLGEMM_EMULATE_TMA 0
#endif
#endif

/* The host's tensor maps of A, B and C (host/lib/tensor_map.h), a kernel argument by value:
 * nothing to create and upload per call. */
typedef struct {
    ulong2 w[24];
} tma_maps_arg;

#if !CLGEMM_EMULATE_TMA

/* One thread: initialise an mbarrier for `count` arrivals, then make the initialisation
 * visible to the copy engine (the async proxy) before any copy names the barrier. */
#define TMA_BAR_INIT(bar, count)                                                          \
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory")
#define TMA_BAR_INIT_FENCE()                                                              \
    asm volatile("fence.mbarrier_init.release.cluster;\n\t"                             \
                 "fence.proxy.async.shared::cta;" ::: "memory")

/* Every thread, after writing local memory with ordinary stores that a copy will overwrite
 * (or that wgmma will read): order those stores before the copy engine's. */
#define TMA_PROXY_FENCE() asm volatile("fence.proxy.async.shared::cta;" ::: "memory")

/* One thread: arrive on bar and announce `bytes` more to come from copies. */
#define TMA_EXPECT(bar, bytes)                                                            \
    asm volatile("{ .reg .b64 tma_state_;\n\t"                                            \
                 "mbarrier.arrive.expect_tx.shared::cta.b64 tma_state_, [%0], %1; }"     \
                 ::"r"(bar), "r"(bytes) : "memory")

/* One thread per warp (or per work-item, as the count at init says): arrive on bar. */
#define TMA_ARRIVE(bar)                                                                   \
    asm volatile("{ .reg .b64 tma_state_;\n\t"                                            \
                 "mbarrier.arrive.shared.b64 tma_state_, [%0]; }" ::"r"(bar) : "memory")

/* One thread: copy the box at column x, row y of the map's matrix to dst; completion is
 * counted on bar. */
#define TMA_LOAD_2D(dst, map, x, y, bar)                                                  \
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"                   \
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"             \
                 ::"r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar) : "memory")

/* The same from a 3-D map: z is the coordinate of the third dimension (a strided batch's
 * problem). */
#define TMA_LOAD_3D(dst, map, x, y, z, bar)                                               \
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile"                   \
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"         \
                 ::"r"(dst), "l"(map), "r"(x), "r"(y), "r"(z), "r"(bar) : "memory")

/* One thread: the box at column x, row y (and problem z) of the map's matrix written from the
 * local bytes at src, which hold it as TMA_LOAD_2D would have put it (the map's swizzle); the
 * part of the box outside the matrix is not written.  The copy engine reads src after the
 * call returns: TMA_STORE_COMMIT closes a group of such stores, and TMA_STORE_WAIT_READ waits
 * until the engine has read every committed group (src may be written again). */
#define TMA_STORE_2D(map, x, y, src)                                                      \
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" \
                 ::"l"(map), "r"(x), "r"(y), "r"(src) : "memory")
#define TMA_STORE_3D(map, x, y, z, src)                                                   \
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group"                \
                 " [%0, {%1, %2, %3}], [%4];" ::"l"(map), "r"(x), "r"(y), "r"(z), "r"(src) \
                 : "memory")
#define TMA_STORE_COMMIT() asm volatile("cp.async.bulk.commit_group;" ::: "memory")
#define TMA_STORE_WAIT_READ() asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory")

/* Any thread: has bar finished the phase of this parity? */
inline int tma_bar_done(const uint bar, const uint parity)
{
    uint done;
    asm volatile("{ .reg .pred tma_p_;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 tma_p_, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, tma_p_; }"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    return (int)done;
}
#define TMA_WAIT(bar, parity)                                                             \
    do {                                                                                  \
    } while (!tma_bar_done((bar), (parity)))

/* Replace the placeholder address of a map in local memory (sm_90a, PTX 8.3). */
#define TMA_MAP_SET_ADDRESS(local_map, address)                                           \
    asm volatile("// @sm90a tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" \
                 ::"r"(local_map), "l"(address) : "memory")
#define TMA_MAP_RELEASE()                                                                 \
    asm volatile("// @sm90a fence.proxy.tensormap::generic.release.gpu;" ::: "memory")
/* Each group copies through maps of its own, slot TMA_MAP_SLOT of the host's map_slots:
 * every group writing into one shared map slowed the batches most, all their groups starting
 * at once (probe70 in bench/results/2026-11-25_nvidia-h100/probes).  Groups map_slot_count
 * apart in launch order share a slot, and two of them can run at once (two groups on an SM,
 * or a slow group of an earlier wave).  So a slot's bytes may never change while a launch
 * runs: every group of it writes the same final maps there, addresses in.  The first form
 * copied the host's maps into the slot and then replaced their addresses in place, so that a
 * copy engine reading the slot meanwhile met the placeholder address and faulted (probe80 in
 * bench/results/2026-11-26_nvidia-h200/probes: 64-row tiles, two groups per SM, > 256 groups).
 * The host passes the slot count (the kernel's map_slot_count, host/lib/enqueue.c); a slot is
 * the size of the maps. */
#define TMA_MAP_SLOT_BYTES ((int)sizeof(tma_maps_arg))
#define TMA_MAP_SLOT                                                                      \
    (((get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) +       \
      get_group_id(0)) % map_slot_count)
/* One thread: the host-encoded maps (a tma_maps_arg, by value) into `stage` (local memory,
 * 128-byte aligned, nobody else's yet), the buffers' addresses written in there (A's map at
 * byte 0, B's at 128, with cmap C's at 256), the whole maps stored to the slot (and where
 * `keep` is not 0 to that slot too) and published to the copy engine.  The closing proxy
 * fence orders these generic accesses of `stage` before the copy engine's writes into it.
 * Each thread that copies through a map acquires it.
 *
 * Kept maps.  Publishing costs every group a store of the maps, a device-wide release and the
 * acquires before its first copy, in line before any data moves: 1-3 us of a small call
 * (probes 111-113 in bench/results/2026-11-26_nvidia-h100/probes).  Acquiring kept maps all
 * the same cost back most of the gain in batches (probe112), and nothing requires it: the
 * maps were stored by an earlier launch.  So the
 * first group of a call also stores its final maps to one of the host's keep slots (after the
 * map_slot_count group slots; the host says which, map_keep, host/lib/tma_map_cache.c), and
 * a later call on the same in-order queue with the same maps and buffers (map_kept) copies
 * through them with nothing published: the launch between the two calls orders the stores
 * before its copies.  The host forgets a kept slot when any buffer it watches is released,
 * so that a new buffer at a recycled handle never meets another's address. */
#define TMA_MAPS_KEEPER                                                                   \
    (get_group_id(0) == 0 && get_group_id(1) == 0 && get_group_id(2) == 0)
#define TMA_MAPS_PUBLISH(slot, keep, from, stage, a, b, c, operands, cmap)                \
    do {                                                                                  \
        __local ulong2 *const st_ = (__local ulong2 *)(stage);                            \
        const uint at_ = TMA_LOCAL_ADDR(stage);                                           \
        _Pragma("unroll") for (int i_ = 0; i_ < TMA_MAP_SLOT_BYTES / 16; ++i_)            \
            st_[i_] = (from).w[i_];                                                       \
        if (operands) {                                                                   \
            TMA_MAP_SET_ADDRESS(at_, (ulong)(a));                                         \
            TMA_MAP_SET_ADDRESS(at_ + 128u, (ulong)(b));                                  \
        }                                                                                 \
        if (cmap)                                                                         \
            TMA_MAP_SET_ADDRESS(at_ + 256u, (ulong)(c));                                  \
        _Pragma("unroll") for (int i_ = 0; i_ < TMA_MAP_SLOT_BYTES / 16; ++i_)            \
            ((__global ulong2 *)(slot))[i_] = st_[i_];                                    \
        if (keep)                                                                         \
            _Pragma("unroll") for (int i_ = 0; i_ < TMA_MAP_SLOT_BYTES / 16; ++i_)        \
                ((__global ulong2 *)(keep))[i_] = st_[i_];                                \
        TMA_MAP_RELEASE();                                                                \
        asm volatile("// @sm90a fence.proxy.async.shared::cta;" ::: "memory");            \
    } while (0)
/* A hint that a copy will soon go through the map at `map` (global memory): the copy engine
 * fetches the 128 bytes now, while the group sets up, instead of at its first copy. */
#define TMA_MAP_PREFETCH(map)                                                             \
    asm volatile("// @sm90a prefetch.tensormap [%0];" ::"l"(map) : "memory")
/* Any thread, before the first copy through a map that was changed (TMA_MAPS_PUBLISH). */
#define TMA_MAP_ACQUIRE(map)                                                              \
    asm volatile("// @sm90a fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"        \
                 ::"l"(map) : "memory")

#else /* CLGEMM_EMULATE_TMA */
#include "mma/wgmma.h" /* wgmma_swz: the copy engine writes wgmma's swizzled layouts */

/* What one TMA_LOAD_2D does, shared out over the work-group (every work-item calls it, and
 * barriers around the calls stand in for the mbarrier, which a CPU device cannot spin on
 * while another work-item of the same group completes it): the box of box_rows x box_cols
 * values of `size` bytes (2 or 4) at column x, row y of the rows x cols matrix m (ld values
 * between rows) lands at local byte address dst (relative to the arena) in rows of
 * size * box_cols bytes, swizzled at swz bytes; the values outside the matrix are zeros. */
inline void tma_emu_load_2d(__local uchar *arena, const uint dst, __global const uchar *m,
                            const int ld, const int rows, const int cols, const int x,
                            const int y, const int box_rows, const int box_cols,
                            const int size, const uint swz, const int id, const int nthreads)
{
    for (int i = id; i < box_rows * box_cols; i += nthreads) {
        const int r = i / box_cols, c = i % box_cols;
        const bool in = y + r < rows && x + c < cols;
        const size_t from = in ? (size_t)(y + r) * ld + (size_t)(x + c) : 0;
        __local uchar *const to =
            arena + wgmma_swz(dst + (uint)((r * box_cols + c) * size), swz);
        if (size == 4)
            *(__local uint *)to = in ? ((__global const uint *)m)[from] : 0u;
        else
            *(__local ushort *)to = in ? ((__global const ushort *)m)[from] : (ushort)0;
    }
}

#endif /* CLGEMM_EMULATE_TMA */

#endif
