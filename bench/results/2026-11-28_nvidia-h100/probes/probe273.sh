#!/usr/bin/env bash
# Probe 273 (H100): fp32 strided batches on step 7 with deeper K slices (BK 32 or 64: a K of 64
# in one or two slices, each row of a K-major operand read as whole 128-byte lines, where the
# rule's 16-deep slices read half lines twice), now that step 7's local-memory check takes the
# H100's room; N T (1.93x CLBlast, issue #16 asks 2x), N N and T N beside it; CLBlast in the
# same command; three interleaved rounds.
source bench/probes/probe.sh probe273
export PROBE_TIMEOUT=60
{
probe_header
W=warp_tiled:READT=1,WM=64,WN=32,CLAMP=1,MAXNREG=128
for r in 1 2 3; do
  for bs in 512:128x128x64 64:512x512x64; do
    b=${bs%%:*}; s=${bs##*:}
    probe_run "r$r NT $b x $s clblast" --size $s --batch $b --trans NT --algo clblast
    probe_run "r$r NT $b x $s rule" --size $s --batch $b --trans NT --algo auto
    for v in "BK=32,PREFETCH=0" "BK=32,PREFETCH=1" "BK=64,PREFETCH=0"; do
      probe_run "r$r NT $b x $s $v" --size $s --batch $b --trans NT --algo $W,$v
    done
    probe_run "r$r NT $b x $s BK=32,PREFETCH=0 uncapped" --size $s --batch $b --trans NT --algo warp_tiled:READT=1,WM=64,WN=32,CLAMP=1,BK=32,PREFETCH=0
    for t in NN TN; do
      probe_run "r$r $t $b x $s rule" --size $s --batch $b --trans $t --algo auto
      probe_run "r$r $t $b x $s BK=32,PREFETCH=0" --size $s --batch $b --trans $t --algo $W,BK=32,PREFETCH=0
    done
  done
done
} > $P 2>&1
cat $P
