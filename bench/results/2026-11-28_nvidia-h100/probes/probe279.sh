#!/usr/bin/env bash
# Probe 279 (H100): the rounds model of step 11's fp32 M <= 16 rules (groups_per_cu 2 for N T),
# fitted on probe278's widths, at widths it was not fitted on, where its count differs from
# the former split_per_cu rule's: every split 1..8 beside auto (the new count), two
# interleaved rounds; M = 16 and 8.
source bench/probes/probe.sh probe279
export PROBE_TIMEOUT=120
{
probe_header
SNT=skinny:WG=256,KT=16,RN=4,UNROLL=1,AL=512,BM=16
SNN=skinny:WG=512,KT=32,UNROLL=2,AL=512,BM=16
for r in 1 2; do
  for s in 16x9216x4096 16x9216x11008 16x10240x4096 16x12288x8192 16x18944x4096 16x18944x8192 \
           16x20480x4096 16x1024x8192 16x9216x2048 8x12288x8192 8x9216x4096 16x13824x11008; do
    a=(--algo auto); for S in 1 2 3 4 5 6 8 12 16; do a+=(--algo $SNT,SPLITK=$S); done
    probe_run "r$r f32 NT $s" --size $s --trans NT --iters 50 "${a[@]}"
  done
  for s in 16x5120x4096 16x9216x4096 16x12288x4096 16x18944x8192 16x10240x11008 8x5120x8192; do
    a=(--algo auto); for S in 1 2 3 4 5 6 8; do a+=(--algo $SNN,SPLITK=$S); done
    probe_run "r$r f32 NN $s" --size $s --trans NN --iters 50 "${a[@]}"
  done
done
} > $P 2>&1
cat $P
