#!/usr/bin/env bash
# Probe 277 (H100): what of TF32's fused bias_gelu (+3.5% at 4096^3, fp32 C, 3x bf16's cost in
# microseconds) is the bias and what the GELU: each epilogue alone, two rounds.
source bench/probes/probe.sh probe277
export PROBE_TIMEOUT=60
{
probe_header
for r in 1 2; do
  for e in none bias relu gelu bias_gelu; do
    probe_run "r$r f32 $e" --size 4096 --algo tensor_core --epilogue $e --iters 40
  done
done
} > $P 2>&1
cat $P
