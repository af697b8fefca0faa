#!/usr/bin/env bash
# Probe 295 (H200).  (1) probe294 found step 10 up to 2x slower when the operands' rows lie on
# 16 bytes but not on 128 (bf16 --ld-pad 8, TF32 --ld-pad 4), although the copy engine reads
# them in place: how the time depends on the rows' alignment (pad 0/8/16/32/64 bf16, 0/4/8/16/32
# TF32) at M = 128 and 4096^3, and what packing the misaligned operand first (the layout pass,
# timed with the call) gives instead: probe295.patch, PROBE_ALIGN128=mask (bit k: operand k as
# the kernel reads it, after the swap) makes step 10 pack unless rows and offset lie on 128
# bytes.  (2) M = 128: two groups per SM (4 slots, half the ring) with K split, and 64-row
# halves of X (BN 64), against the rule's one group of 8 slots.  Two rounds; verified.
patch -p1 < .gpu/probe295.patch
source bench/probes/probe.sh probe295
export PROBE_TIMEOUT=150
R16="BM=64,BN=128,WGN=128,SWAP=1,INFLIGHT=1"
B16=(--iters 30 --dtype bf16 --out bf16 --algo tensor_core)
TF=(--iters 30 --algo tensor_core)
{
probe_header
for r in 1 2; do
  for c in NT:128x6144x4096 NT:4096 NN:4096; do
    t=${c%%:*}; s=${c#*:}
    for pad in 0 8 16 32 64; do
      probe_run "r$r bf16 $t $s pad$pad" --size $s --trans $t --ld-pad $pad "${B16[@]}"
    done
    for m in 1 2 3; do
      PROBE_ALIGN128=$m probe_run "r$r bf16 $t $s pad8 pack$m" --size $s --trans $t --ld-pad 8 "${B16[@]}"
    done
    for pad in 0 4 8 16 32; do
      probe_run "r$r tf32 $t $s pad$pad" --size $s --trans $t --ld-pad $pad "${TF[@]}"
    done
    for m in 1 2 3; do
      PROBE_ALIGN128=$m probe_run "r$r tf32 $t $s pad4 pack$m" --size $s --trans $t --ld-pad 4 "${TF[@]}"
    done
  done
  for s in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336; do
    probe_run "r$r bf16 NT $s split/halves" --size $s --trans NT --iters 30 --dtype bf16 --out bf16 \
      --algo tensor_core --algo wgmma_tma:$R16,STAGES=4,SPLITK=2 --algo wgmma_tma:$R16,STAGES=4,SPLITK=3 \
      --algo wgmma_tma:$R16,STAGES=4,SPLITK=4 --algo wgmma_tma:BM=64,BN=64,WGN=64,SWAP=1,INFLIGHT=1,STAGES=6 \
      --algo wgmma_tma:BM=64,BN=64,WGN=64,SWAP=1,INFLIGHT=1,STAGES=12
  done
done
} > $P 2>&1
cat $P
