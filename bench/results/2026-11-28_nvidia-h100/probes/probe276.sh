#!/usr/bin/env bash
# Probe 276 (H100): step 10's new default (a 16-bit C staged under GELU) against the former
# one (STAGED=0) at the shapes it touches: 4096^3 TF32 and bf16 with bf16 / f16 C and
# bias_gelu, a column-major C, a batch (PERSIST, TSTORE); two interleaved rounds.
source bench/probes/probe.sh probe276
export PROBE_TIMEOUT=90
{
probe_header
T=wgmma_tma:BM=128,BN=256,BK=32,WGN=256,STAGES=4,GM=16,PACKA=3,PACKB=1,SETMAXNREG=1
H=wgmma_tma:BM=128,BN=256,BK=64,WGN=256,STAGES=3,INFLIGHT=0,GM=32
for r in 1 2; do
  for dv in f32:$T bf16:$H; do
    d=${dv%%:*}; F=${dv#*:}
    for o in bf16 f16; do
      probe_run "r$r $d out $o rule" --size 4096 --dtype $d --out $o --epilogue bias_gelu --algo tensor_core --iters 50
      probe_run "r$r $d out $o STAGED=0" --size 4096 --dtype $d --out $o --epilogue bias_gelu --algo $F,STAGED=0 --iters 50
    done
    probe_run "r$r $d col out bf16 rule" --size 4096 --layout col --dtype $d --out bf16 --epilogue gelu --algo tensor_core --iters 50
    probe_run "r$r $d col out bf16 STAGED=0" --size 4096 --layout col --dtype $d --out bf16 --epilogue gelu --algo $F,STAGED=0 --iters 50
  done
  probe_run "r$r bf16 batch 64x512^2x64 out bf16 rule" --size 512x512x64 --batch 64 --dtype bf16 --out bf16 --epilogue bias_gelu --algo tensor_core
  probe_run "r$r bf16 batch 64x512^2x64 out bf16 STAGED=0" --size 512x512x64 --batch 64 --dtype bf16 --out bf16 --epilogue bias_gelu --algo wgmma_tma:BN=128,WGN=128,STAGES=4,PERSIST=1,TSTORE=1,STAGED=0
done
} > $P 2>&1
cat $P
