#!/usr/bin/env bash
# Probe 290 (H200): attention-sized batches, where the H200's layouts run (8803c18's records)
# read 86-90% of cuBLAS bmm for 16-bit and TF32 64 x 512^2 x 64 N T: the batch rules (copied
# from the H100 or measured at one shape) against more groups per SM (PERSIST=2), 64-row
# blocks, fewer slots, a 256-wide block; two interleaved rounds, every row verified.
source bench/probes/probe.sh probe290
export PROBE_TIMEOUT=120
B16="WGN=128,TSTORE=1"
TF="PACKA=3,PACKB=2"
{
probe_header
for r in 1 2; do
  for c in 64:512x512x64 512:128x128x64; do
    b=${c%%:*}; s=${c#*:}
    for t in NN NT; do
      probe_run "r$r bf16 $t b$b $s" --size $s --batch $b --trans $t --dtype bf16 --out bf16 --iters 100 \
        --algo tensor_core --algo wgmma_tma:BN=128,$B16,STAGES=2,PERSIST=2 \
        --algo wgmma_tma:BM=64,BN=128,$B16,STAGES=4,PERSIST=2 \
        --algo wgmma_tma:BN=128,$B16,STAGES=2,PERSIST=1 --algo wgmma_tma:BN=256,WGN=256,TSTORE=1,STAGES=3,PERSIST=1
      sw=; [ $t = NN ] && sw=,SWAP=1
      probe_run "r$r tf32 $t b$b $s" --size $s --batch $b --trans $t --iters 100 \
        --algo tensor_core --algo wgmma_tma:BN=128,WGN=128,STAGES=2,$TF,PERSIST=2$sw \
        --algo wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,$TF,PERSIST=2$sw \
        --algo wgmma_tma:BN=128,WGN=128,STAGES=3,$TF,PERSIST=1$sw
    done
  done
done
} > $P 2>&1
cat $P
