#!/usr/bin/env bash
# Probe 274 (H100): why a fused bias_gelu costs TF32 4096^3 3.3-4% (bf16 2.8%): NVIDIA's build
# log (-cl-nv-verbose) of the TF32 form (PACKA=3, SETMAXNREG=1) and of bf16's, plain and with
# bias_gelu (registers, spills); then three interleaved timing rounds of each.
source bench/probes/probe.sh probe274
export PROBE_TIMEOUT=90
{
probe_header
for d in f32 bf16; do
  for e in none bias_gelu; do
    echo "== $d $e build log"
    CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose \
      build-gpu/clgemm --device nvidia --size 4096 --dtype $d --algo tensor_core --epilogue $e \
      --no-baseline --iters 1 --warmup 0 2>&1 | grep -iE "registers|spill|stack|smem|gemm_wgmma" | head -12
  done
done
for r in 1 2 3; do
  for d in f32 bf16; do
    for e in none bias_gelu; do
      probe_run "r$r $d $e" --size 4096 --dtype $d --algo tensor_core --epilogue $e --iters 50
    done
  done
done
} > $P 2>&1
cat $P
