#!/usr/bin/env bash
# Probe 293 (H200): probe292 found step 10's M = 128 rules bound by their copy stream.  Which
# part: the same builds without wgmmas (-DPROBE_NO_MMA), and without wgmmas or X's boxes
# (-DPROBE_NO_B: only the weight's boxes copied; probe293.patch, applied on the device only),
# beside the whole kernel; bf16 and TF32 N T, two rounds, --no-check.
patch -p1 < .gpu/probe293.patch
source bench/probes/probe.sh probe293
export PROBE_TIMEOUT=120
{
probe_header
for r in 1 2; do
  for s in 128x6144x4096 128x28672x4096; do
    for dt in bf16 f32; do
      x=(); [ $dt = bf16 ] && x=(--dtype bf16 --out bf16)
      a=(--size $s --trans NT --iters 50 --no-check "${x[@]}" --algo tensor_core)
      PROBE_OPTIONS= probe_run "r$r $dt $s whole" "${a[@]}"
      PROBE_OPTIONS=-DPROBE_NO_MMA=1 probe_run "r$r $dt $s no-mma" "${a[@]}"
      PROBE_OPTIONS="-DPROBE_NO_MMA=1 -DPROBE_NO_B=1" probe_run "r$r $dt $s no-mma-no-x" "${a[@]}"
    done
  done
done
} > $P 2>&1
cat $P
