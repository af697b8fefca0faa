#!/usr/bin/env bash
# Probe 280 (H100): fp32 N T batches (issue #16: >= 2x CLBlast strided-batched; the rule reads
# 1.93x at 512 x 128^2 x 64).  Smaller tiles (64 x 128, 128 x 64, 64 x 64) that run more groups
# per SM and fill the second round, warp shapes, PREFETCH 0, APAD 0, against the rule and
# CLBlast, three interleaved rounds; the N N rule beside.
source bench/probes/probe.sh probe280
export PROBE_TIMEOUT=120
{
probe_header
B="warp_tiled:BK=16,READT=1,CLAMP=1"
V=(",PREFETCH=1,WM=64,WN=32,MAXNREG=128" ",PREFETCH=1,WM=64,WN=32,BM=64,MAXNREG=128"
   ",PREFETCH=1,WM=64,WN=32,BM=64" ",PREFETCH=1,WM=64,WN=32,BN=64,MAXNREG=128"
   ",PREFETCH=1,BM=64,BN=64,TM=4,WM=32,WN=32" ",PREFETCH=0,WM=64,WN=32,MAXNREG=128"
   ",PREFETCH=1,TM=4,WM=32,WN=32,MAXNREG=128" ",PREFETCH=1,BM=64,TM=4,WM=32,WN=32"
   ",PREFETCH=1,BN=64,TN=4,WM=32,WN=32" ",PREFETCH=1,WM=64,WN=32,APAD=0,MAXNREG=128"
   ",PREFETCH=1,WM=32,WN=64,MAXNREG=128" ",PREFETCH=1,WM=64,WN=32,BM=64,MAXNREG=96")
for r in 1 2 3; do
  for sp in 512:128x128x64 64:512x512x64; do
    b=${sp%%:*}; s=${sp##*:}
    a=(--algo auto --algo clblast); for v in "${V[@]}"; do a+=(--algo "$B$v"); done
    probe_run "r$r NT b$b $s" --batch $b --size $s --trans NT --iters 100 "${a[@]}"
    probe_run "r$r NN b$b $s" --batch $b --size $s --trans NN --iters 100 --algo auto --algo clblast
  done
done
} > $P 2>&1
cat $P
