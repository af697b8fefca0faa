#!/usr/bin/env bash
# Probe 284 (H100): probe283's rounds model for auto's fp32 16 < M <= 64 rules (three groups
# per SM, L 0, P ~96; fitted there, not adopted) at shapes it was not fitted on, where its
# count differs from split_per_cu 2.9's, and the 24-32 slices it names at 64x4096x14336:
# splits beside auto (the shipped rule), two interleaved rounds.
source bench/probes/probe.sh probe284
export PROBE_TIMEOUT=150
{
probe_header
NN="warp_tiled:BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16"
NT="warp_tiled:SWAP=1,READT=0,BM=128,BN=64,BK=8,TM=8,TN=8,WM=64,WN=32"
for r in 1 2; do
  for tr in NN NT; do
    [ $tr = NN ] && B=$NN || B=$NT
    for s in 64x7168x4096 64x9216x8192 64x18944x4096 64x18944x14336 64x4096x14336 48x9216x14336; do
      a=(--algo auto); for S in 2 4 7 8 12 16 24 28 32; do a+=(--algo $B,SPLITK=$S); done
      probe_run "r$r f32_64_$tr $s" --size $s --trans $tr --iters 20 "${a[@]}"
    done
  done
done
} > $P 2>&1
cat $P
