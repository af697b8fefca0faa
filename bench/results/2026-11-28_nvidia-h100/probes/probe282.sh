#!/usr/bin/env bash
# Probe 282 (H100): probe281's rounds rules (fp32 M <= 4 N T and N N, 16-bit M = 1 N N) at
# widths they were not fitted on, where their count differs from the former rules': every
# split beside auto / tensor_core (the new count), two interleaved rounds; M = 2, 3, 4; f16 too.
source bench/probes/probe.sh probe282
export PROBE_TIMEOUT=120
{
probe_header
NT4="WG=256,KT=32,RN=8,UNROLL=1,BM=16"; NN4="WG=512,KT=64,UNROLL=2,BM=16"; NN1="WG=512,KT=64,UNROLL=2,BM=1"
SS="1 2 3 4 5 6 8 10 12 16 24 32"
one() { local tag=$1 s=$2 tr=$3 p=$4 auto=$5; shift 5
  local a=(--algo $auto); for S in $SS; do a+=(--algo skinny:$p,SPLITK=$S); done
  probe_run "$tag $s" --size $s --trans $tr --iters 50 "$@" "${a[@]}"; }
for r in 1 2; do
  for s in 4x1024x4096 4x1536x8192 4x5120x4096 3x9216x11008 4x12288x8192 2x3072x11008 4x18944x8192; do
    one "r$r f32_4_NT" $s NT $NT4 auto; done
  for s in 4x1024x8192 4x1536x4096 4x5120x8192 3x9216x11008 2x14336x11008 4x3072x11008; do
    one "r$r f32_4_NN" $s NN $NN4 auto; done
  for s in 1x1024x8192 1x3072x4096 1x5120x8192 1x8192x4096 1x12288x4096 1x18944x8192; do
    one "r$r bf16_1_NN" $s NN $NN1 tensor_core --dtype bf16 --out bf16; done
  for s in 1x9216x4096 1x14336x4096; do
    one "r$r f16_1_NN" $s NN $NN1 tensor_core --dtype f16 --out f16; done
done
} > $P 2>&1
cat $P
