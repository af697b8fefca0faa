#!/usr/bin/env bash
# Probe 266 (H200): the TF32 N T M <= 128 rule after probe265 (splits by rounds, the 128-row
# tile where K is long) against the form the rule ran before (64-row blocks in 2 slices), at
# the depths where the choice changed and around the model's crossover (K about 4400 at
# N = 4096), two rounds; then the Llama preset (device_session.sh, in the same command).
source bench/probes/probe.sh probe266
export PROBE_TIMEOUT=120
{
probe_header
OLD=wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=2
for r in 1 2; do
  for s in 128x4096x14336 96x4096x14336 128x4096x8192 128x4096x5120 128x4096x4096; do
    probe_run "r$r $s rule" --size $s --trans NT --algo tensor_core
    probe_run "r$r $s before" --size $s --trans NT --algo $OLD
  done
done
python3 bench/cublas.py tf32:128x4096x14336:NT tf32:96x4096x14336:NT tf32:128x4096x8192:NT \
  tf32:128x4096x5120:NT 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
