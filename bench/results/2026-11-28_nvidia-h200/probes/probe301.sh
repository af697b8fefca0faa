#!/usr/bin/env bash
# Probe 301 (H200): fp32 auto N T batches at 1.97x CLBlast (probe297; #16 asks 2x): the rule
# without clamped edges (CLAMP=0, 3 registers back), without the pipeline's prefetch, and with
# A's local tile padded (APAD), against CLBlast's strided batch in the same command.  Two
# rounds, verified.
source bench/probes/probe.sh probe301
export PROBE_TIMEOUT=120
R="BK=16,READT=1"
{
probe_header
for r in 1 2; do
  for c in 512:128x128x64 64:512x512x64; do
    b=${c%%:*}; s=${c#*:}
    probe_run "r$r f32 NT b$b $s" --size $s --batch $b --trans NT --iters 200 --algo clblast --algo auto \
      --algo warp_tiled:$R,PREFETCH=1,CLAMP=0,WM=64,WN=32,MAXNREG=128 \
      --algo warp_tiled:$R,PREFETCH=1,CLAMP=0,WM=128,WN=16,MAXNREG=128 \
      --algo warp_tiled:$R,PREFETCH=0,CLAMP=1,WM=64,WN=32,MAXNREG=128 \
      --algo warp_tiled:$R,PREFETCH=1,CLAMP=1,WM=64,WN=32,MAXNREG=128,APAD=4 --algo clblast
  done
done
} > $P 2>&1
cat $P
