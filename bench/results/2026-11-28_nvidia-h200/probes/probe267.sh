#!/usr/bin/env bash
# Probe 267 (H200): probe265's finding for TF32 (128-row weight tiles split over K, half the
# reads of X, won at K = 14336 on the H200) tried on the 16-bit M = 128 rule (64-row blocks,
# unsplit, copied from the H100, where probe264 found every such split slower), bf16 N T with
# a bf16 C, two rounds, cuBLAS in the same command.
source bench/probes/probe.sh probe267
export PROBE_TIMEOUT=120
{
probe_header
S=BM=128,BN=128,WGN=128,SWAP=1,INFLIGHT=1,STAGES=6
S64=BM=64,BN=128,WGN=128,SWAP=1,INFLIGHT=1,STAGES=8
for r in 1 2; do
  for s in 128x4096x14336 128x6144x4096 128x4096x4096; do
    probe_run "r$r $s rule" --size $s --dtype bf16 --out bf16 --trans NT --algo tensor_core
    for v in "$S,SPLITK=2" "$S,SPLITK=4" "$S64,SPLITK=2"; do
      probe_run "r$r $s $v" --size $s --dtype bf16 --out bf16 --trans NT --algo wgmma_tma:$v
    done
  done
done
python3 bench/cublas.py bf16:128x4096x14336:NT bf16:128x6144x4096:NT bf16:128x4096x4096:NT 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
