#!/usr/bin/env bash
# Probe 289 (H200): taller blocks of the weight at M = 128, X W^T (N T).  Step 10 now takes
# BM = 192 and 256 (three and four consumer warpgroups); each block of W reads all of X
# from the L2 once, so 256 rows halve those reads against the rules' 128 (TF32) and quarter
# them against 64 (16-bit).  Splits chosen to fill 132 SMs.  Two interleaved rounds.
source bench/probes/probe.sh probe289
export PROBE_TIMEOUT=150
TF="SWAP=1,PACKA=3,PACKB=2"
{
probe_header
for r in 1 2; do
  for c in 128x6144x4096:4:4 128x4096x4096:8:6 128x11008x4096:3:3 128x28672x4096:1:1 128x4096x14336:8:6; do
    s=${c%%:*}; rest=${c#*:}; S256=${rest%%:*}; S192=${rest#*:}
    probe_run "r$r bf16 $s" --size $s --trans NT --iters 50 --dtype bf16 --out bf16 --algo tensor_core \
      --algo wgmma_tma:BM=256,BN=128,WGN=128,STAGES=4,SWAP=1,SPLITK=$S256 \
      --algo wgmma_tma:BM=256,BN=128,WGN=128,BK=32,STAGES=8,SWAP=1,SPLITK=$S256 \
      --algo wgmma_tma:BM=192,BN=128,WGN=128,STAGES=5,SWAP=1,SPLITK=$S192
    probe_run "r$r tf32 $s" --size $s --trans NT --iters 50 --algo tensor_core \
      --algo wgmma_tma:BM=256,BN=128,WGN=128,STAGES=4,$TF,ROUNDER=1,SPLITK=$S256 \
      --algo wgmma_tma:BM=256,BN=128,WGN=128,STAGES=4,$TF,SPLITK=$S256 \
      --algo wgmma_tma:BM=256,BN=128,WGN=128,STAGES=4,SWAP=1,PACKA=2,PACKB=2,ROUNDER=1,SPLITK=$S256 \
      --algo wgmma_tma:BM=192,BN=128,WGN=128,STAGES=5,$TF,ROUNDER=1,SPLITK=$S192
  done
done
} > $P 2>&1
cat $P
