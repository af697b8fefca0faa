#!/usr/bin/env bash
# Probe 292 (H200): what holds step 10's M = 128 rules to ~2.1-2.5 TB/s of the weight: the
# same builds with the wgmmas taken out (probe292.patch, -DPROBE_NO_MMA: the producer's copies,
# the mbarrier ring, the rounders and the stores unchanged, C all zeros, --no-check) beside
# the whole kernel, bf16 and TF32 N T, and the skinny kernel's M = 1 stream for scale.
patch -p1 < .gpu/probe292.patch
source bench/probes/probe.sh probe292
export PROBE_TIMEOUT=120
{
probe_header
for r in 1 2; do
  for s in 128x6144x4096 128x28672x4096; do
    for dt in bf16 f32; do
      x=(); [ $dt = bf16 ] && x=(--dtype bf16 --out bf16)
      PROBE_OPTIONS= probe_run "r$r $dt $s whole" --size $s --trans NT --iters 50 --no-check "${x[@]}" --algo tensor_core
      PROBE_OPTIONS=-DPROBE_NO_MMA=1 probe_run "r$r $dt $s no-mma" --size $s --trans NT --iters 50 --no-check "${x[@]}" --algo tensor_core
    done
  done
  PROBE_OPTIONS= probe_run "r$r bf16 1x28672x4096 skinny" --size 1x28672x4096 --trans NT --iters 50 --dtype bf16 --out bf16 --algo tensor_core
done
} > $P 2>&1
cat $P
