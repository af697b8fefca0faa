#!/usr/bin/env bash
# Probe 283 (H100): the split count of auto's fp32 16 < M <= 64 rules (step 7 with 64-row
# tiles; N T swapped), which split by split_per_cu 2.9: every split 1..16 at M = 64 over
# nine widths (K = 4096) and three (K = 14336), both layouts, two interleaved rounds, auto
# beside; a rounds model is fitted on half the shapes and checked on the other half.
source bench/probes/probe.sh probe283
export PROBE_TIMEOUT=150
{
probe_header
NN="warp_tiled:BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16"
NT="warp_tiled:SWAP=1,READT=0,BM=128,BN=64,BK=8,TM=8,TN=8,WM=64,WN=32"
for r in 1 2; do
  for tr in NN NT; do
    [ $tr = NN ] && B=$NN || B=$NT
    for s in 64x2048x4096 64x3072x4096 64x4096x4096 64x5120x4096 64x6144x4096 64x8192x4096 \
             64x11008x4096 64x14336x4096 64x28672x4096 64x2048x14336 64x4096x14336 64x11008x14336; do
      a=(--algo auto); for S in 1 2 3 4 5 6 8 12 16; do a+=(--algo $B,SPLITK=$S); done
      probe_run "r$r f32_64_$tr $s" --size $s --trans $tr --iters 30 "${a[@]}"
    done
  done
done
} > $P 2>&1
cat $P
