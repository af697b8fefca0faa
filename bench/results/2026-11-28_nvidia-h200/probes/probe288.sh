#!/usr/bin/env bash
# Probe 288 (H200): stream-K on step 10 (STREAMK=1: one group per SM, each a run of the blocks'
# K slices, cut blocks summed by their last group) against the shipped rules at M = 128, X W^T
# (N T), where 64-row blocks of the weight leave SMs idle (96 blocks at N = 6144) or a ragged
# last round (448 at N = 28672).  TF32 and bf16: the rule; its own form with STREAMK=1; the
# 128-row form (half the reads of X) with STREAMK=1.  Two interleaved rounds, every row verified.
source bench/probes/probe.sh probe288
export PROBE_TIMEOUT=120
TF="SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
{
probe_header
for r in 1 2; do
  for s in 128x6144x4096 128x4096x4096 128x11008x4096 128x28672x4096 128x4096x14336 256x6144x4096; do
    probe_run "r$r tf32 $s" --size $s --trans NT --iters 50 --algo tensor_core \
      --algo wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,$TF,STREAMK=1 \
      --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=5,$TF,STREAMK=1
    probe_run "r$r bf16 $s" --size $s --trans NT --iters 50 --dtype bf16 --out bf16 --algo tensor_core \
      --algo wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1,STREAMK=1 \
      --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=4,SWAP=1,STREAMK=1
  done
done
} > $P 2>&1
cat $P
