/* The parameter checks of cl/10_wgmma_tma.cl, included after its definitions: each
 * combination the kernel cannot build stops here with a message naming the parameter. */
#ifndef CLGEMM_WGMMA_TMA_CHECKS_H
#define CLGEMM_WGMMA_TMA_CHECKS_H

#if DTYPE != 0 && DTYPE != 1 && DTYPE != 2
#error "gemm_wgmma_tma: DTYPE must be 0 (fp32 as TF32), 1 (f16) or 2 (bf16)"
#endif
#if SPLIT && (DTYPE != 0 || (PACKA != 1 && PACKA != 3))
#error "gemm_wgmma_tma: SPLIT (tf32x3) needs DTYPE 0, PACKA 1 (packed) or 3 (split in registers)"
#endif
#if PACKA < 0 || PACKA > 3 || PACKB < 1 || PACKB > 2 || (DTYPE != 0 && (PACKA != 1 || PACKB != 1))
#error "gemm_wgmma_tma: PACKA is 0, 1, 2 or 3, PACKB 1 or 2, and only for DTYPE 0 (TF32)"
#endif
#if ROUNDER != 0 && (ROUNDER != 1 || !ROUND_LOCAL)
#error "gemm_wgmma_tma: ROUNDER is 0 or 1, and 1 needs a slot to round in local memory (PACKA or PACKB 2)"
#endif
#if BM != 64 && BM != 128
#error "gemm_wgmma_tma: BM must be 64 or 128 (one or two consumer warpgroups)"
#endif
#if SWZA != 32 && SWZA != 64 && SWZA != 128
#error "gemm_wgmma_tma: BK must be 16, 32 or 64 (DTYPE 0: 8, 16 or 32)"
#endif
#if !B_MN && BN > 256
#error "gemm_wgmma_tma: B^T's box (TF32, or a 16-bit B stored N x K) has at most 256 rows"
#endif
#if INFLIGHT < 0 || INFLIGHT > 3 || INFLIGHT >= STAGES
#error "gemm_wgmma_tma: INFLIGHT must be 0 .. 3 and below STAGES"
#endif
#if SETMAXNREG != 0 && (SETMAXNREG != 1 || CONSUMERS != 2 || ROUNDER)
#error "gemm_wgmma_tma: SETMAXNREG is 0 or 1, and 1 needs BM 128 (two consumers) and no ROUNDER"
#endif
/* A wgmma with A from registers reads them while it runs: with a slice still running, the next
 * slice's fragment loads would overwrite them.  On the H100 tf32x3 built so computed wrong
 * sums (probe101 in bench/results/2026-11-26_nvidia-h100/probes). */
#if PACKA == 3 && INFLIGHT != 0
#error "gemm_wgmma_tma: PACKA 3 needs INFLIGHT 0 (a running wgmma still reads its A registers)"
#endif
#if B_MN && (BN % 64 != 0 || WGN < 64)
#error "gemm_wgmma_tma: a 16-bit B stored K x N lands in 64-column swizzle atoms: BN and WGN multiples of 64"
#endif
#if BN % WGN != 0 || (WGN != 8 && WGN != 16 && WGN != 32 && WGN != 64 && WGN != 128 && WGN != 256)
#error "gemm_wgmma_tma: WGN must be 8, 16, 32, 64, 128 or 256 and BN a multiple of WGN"
#endif
#if STAGES < 2 || STAGES > 16
#error "gemm_wgmma_tma: STAGES must be 2 .. 16"
#endif
#if PERSIST < 0 || (PERSIST && (GEMM_KSPLIT || ROUNDER))
#error "gemm_wgmma_tma: PERSIST is 0 or more, and not with a split of K or ROUNDER"
#endif
/* The local memory of the ring and its mbarriers (mma/tma_store.h adds PERSIST's own room). */
#define TMA_RING_LOCAL (STAGES * STAGE_BYTES + 8 * (2 + ROUNDER) * STAGES)
#if TMA_RING_LOCAL > CLGEMM_LOCAL_BYTES - 16
#error "gemm_wgmma_tma: STAGES slices of A and B exceed the device's local memory"
#endif

#endif
