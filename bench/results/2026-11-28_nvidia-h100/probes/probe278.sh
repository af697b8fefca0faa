#!/usr/bin/env bash
# Probe 278 (H100): the split count at M = 16.  Step 11's fp32 rule (N T and N N) splits by
# split_per_cu, a count that takes one group per SM where the kernel runs two; and step 10's
# TF32 rule.  Every split 1..16 at eight widths (K = 4096) and four (K = 14336), two
# interleaved rounds, so that a split model can be fitted to what is fastest; cuBLAS after.
source bench/probes/probe.sh probe278
export PROBE_TIMEOUT=120
{
probe_header
SNT=skinny:WG=256,KT=16,RN=4,UNROLL=1,AL=512,BM=16
SNN=skinny:WG=512,KT=32,UNROLL=2,AL=512,BM=16
TNT=wgmma_tma:BM=128,BN=16,WGN=16,STAGES=5,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
for r in 1 2; do
  for s in 16x2048x4096 16x3072x4096 16x4096x4096 16x5120x4096 16x6144x4096 16x8192x4096 \
           16x11008x4096 16x14336x4096 16x28672x4096 16x2048x14336 16x4096x14336 16x6144x14336 16x11008x14336; do
    a=(--algo auto); for S in 1 2 3 4 5 6 8 10 12 16; do a+=(--algo $SNT,SPLITK=$S); done
    probe_run "r$r f32 NT $s" --size $s --trans NT --iters 50 "${a[@]}"
  done
  for s in 16x4096x4096 16x6144x4096 16x11008x4096 16x4096x14336; do
    a=(--algo auto); for S in 1 2 3 4 6 8 12; do a+=(--algo $SNN,SPLITK=$S); done
    probe_run "r$r f32 NN $s" --size $s --trans NN --iters 50 "${a[@]}"
  done
  for s in 16x4096x4096 16x6144x4096 16x11008x4096 16x28672x4096 16x4096x14336 16x6144x14336; do
    a=(--algo tensor_core); for S in 1 2 3 4 5 6 8; do a+=(--algo $TNT,SPLITK=$S); done
    probe_run "r$r tf32 NT $s" --size $s --trans NT --iters 50 "${a[@]}"
  done
done
j=(); for s in 16x2048x4096 16x3072x4096 16x4096x4096 16x5120x4096 16x6144x4096 16x8192x4096 \
           16x11008x4096 16x14336x4096 16x28672x4096 16x2048x14336 16x4096x14336 16x6144x14336 16x11008x14336; do
  j+=(fp32:$s:NT:r50 tf32:$s:NT:r50); done
python3 bench/cublas.py "${j[@]}" 2>&1 | grep "^cublas"
} > $P 2>&1
cat $P
