#!/usr/bin/env bash
# Probe 285 (H200): the M = 1 N N rules changed at 6ee385f (the H100's 16-bit rounds model,
# audited on the H200) at widths and depths the audit did not time: what tensor_core and auto
# run now beside every split of their kernel, one round (the device time left this session).
source bench/probes/probe.sh probe285
export PROBE_TIMEOUT=120
{
probe_header
NN1="WG=512,KT=64,UNROLL=2,BM=1"
SS="1 2 3 4 6 8 12 16"
one() { local tag=$1 s=$2 auto=$3; shift 3
  local a=(--algo $auto); for S in $SS; do a+=(--algo skinny:$NN1,SPLITK=$S); done
  probe_run "$tag $s" --size $s --trans NN --iters 50 "$@" "${a[@]}"; }
for s in 1x1024x8192 1x2560x11008 1x7168x14336 1x9216x4096 1x12288x8192 1x18944x8192; do
  one "bf16" $s tensor_core --dtype bf16 --out bf16
  one "tf32" $s tensor_core
  one "f32" $s auto
done
} > $P 2>&1
cat $P
