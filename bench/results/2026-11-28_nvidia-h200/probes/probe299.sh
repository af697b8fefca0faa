#!/usr/bin/env bash
# Probe 299 (H200), at 6bd3c51: (1) TF32's registers form swapped (N > M, SWAP=1: B is the
# kernel's A) with B's rows off 16 bytes: tensor_core should take the PACKA=1 twin; against the
# former form named in full, and the padded call.  (2) a strided 16-bit batch whose B rows lie
# 16 bytes off 32 (--ld-pad 8) stays one launch, B read in place, against --ld-pad 16 and the
# default padding.  Two rounds, verified.
source bench/probes/probe.sh probe299
export PROBE_TIMEOUT=150
T="BM=128,BN=256,BK=32,WGN=256,STAGES=4,GM=16,PACKB=1"
{
probe_header
for r in 1 2; do
  for s in 1000x3001x777 2048x4097x2048; do
    probe_run "r$r tf32 $s pad0" --size $s --ld-pad 0 --iters 50 --algo tensor_core \
      --algo wgmma_tma:$T,PACKA=3,SETMAXNREG=1,SWAP=1
    probe_run "r$r tf32 $s default" --size $s --iters 50 --algo tensor_core
  done
  for pad in 8 16 default; do
    x=(); [ $pad != default ] && x=(--ld-pad $pad)
    probe_run "r$r bf16 b64 512x512x64 pad$pad" --size 512x512x64 --batch 64 --dtype bf16 --out bf16 \
      "${x[@]}" --iters 100 --algo tensor_core
  done
done
} > $P 2>&1
cat $P
