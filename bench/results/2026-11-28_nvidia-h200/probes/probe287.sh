#!/usr/bin/env bash
# Probe 287 (H200): probe286 found step 11's M = 1 N N kernel at 38-40 registers where f16 runs
# unsplit and bf16 split (3 groups of 512 per SM) and at 32 where f16 runs split and bf16
# unsplit (4 groups): the faster of each pair.  Each split with MAXNREG=32 (skinny now takes
# it) against none, f16 and bf16, two interleaved rounds.
source bench/probes/probe.sh probe287
export PROBE_TIMEOUT=120
NN1="WG=512,KT=64,UNROLL=2,BM=1"
{
probe_header
for r in 1 2; do
  for s in 1x2048x14336 1x6144x4096 1x11008x14336 1x28672x4096 1x4096x4096; do
    for dt in f16 bf16; do
      a=(--algo tensor_core)
      for S in 1 2 4; do a+=(--algo skinny:$NN1,SPLITK=$S --algo skinny:$NN1,SPLITK=$S,MAXNREG=32); done
      probe_run "r$r $dt $s" --size $s --trans NN --iters 50 --dtype $dt --out $dt "${a[@]}"
    done
  done
done
} > $P 2>&1
cat $P
