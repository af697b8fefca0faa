#!/usr/bin/env bash
# Probe 265 (H200): TF32 N T at M = 128 (the H200's worst Llama ratios, 0.72-0.84, on a rule
# copied from the H100): the swapped tile reads all of X once per block of weight rows, so
# 128-row weight tiles halve that traffic; split over K to fill the SMs.  Against the rule,
# three rounds, cuBLAS in the same command.
source bench/probes/probe.sh probe265
export PROBE_TIMEOUT=120
{
probe_header
W128=BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
W64=BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
for r in 1 2 3; do
  for s in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
    probe_run "r$r $s rule" --size $s --trans NT --algo tensor_core
    for v in "$W128,SPLITK=2" "$W128,SPLITK=3" "$W128,SPLITK=4" "$W64,SPLITK=2" "$W64,SPLITK=3"; do
      probe_run "r$r $s $v" --size $s --trans NT --algo wgmma_tma:$v
    done
  done
done
python3 bench/cublas.py tf32:128x4096x4096:NT tf32:128x6144x4096:NT tf32:128x4096x14336:NT \
  tf32:128x28672x4096:NT 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
