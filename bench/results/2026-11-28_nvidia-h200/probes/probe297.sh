#!/usr/bin/env bash
# Probe 297 (H200).  (1) fp32 auto N T batches (attention's Q K^T) at 1.97x CLBlast where #16
# asks 2x: step 7's batch rule (BK 16, READT, PREFETCH, 64 x 32 warp tiles, CLAMP, MAXNREG 128)
# against other warp tiles, 64-row blocks, 4 x 8 work-item tiles and BK 8, with CLBlast's
# strided batch in the same command.  (2) TF32 4095^3 --ld-pad 0 at 89% of the padded run: A
# copied for the registers' rounding (PACKA=3) against A rounded by the pre-pass (PACKA=1).
# Two rounds, verified.
source bench/probes/probe.sh probe297
export PROBE_TIMEOUT=150
R="BK=16,READT=1,PREFETCH=1,CLAMP=1"
T="BM=128,BN=256,BK=32,WGN=256,STAGES=4,GM=16,PACKB=1"
{
probe_header
for r in 1 2; do
  for c in 512:128x128x64 64:512x512x64; do
    b=${c%%:*}; s=${c#*:}
    probe_run "r$r f32 NT b$b $s" --size $s --batch $b --trans NT --iters 100 --algo clblast --algo auto \
      --algo warp_tiled:$R,WM=32,WN=64,MAXNREG=128 --algo warp_tiled:$R,WM=128,WN=16,MAXNREG=128 \
      --algo warp_tiled:$R,BM=64,WM=64,WN=32,MAXNREG=128 --algo warp_tiled:$R,BM=64,WM=32,WN=64,MAXNREG=128 \
      --algo warp_tiled:$R,TM=4,TN=8,WM=32,WN=32 --algo warp_tiled:$R,TM=4,TN=8,WM=32,WN=32,MAXNREG=64 \
      --algo warp_tiled:BK=8,READT=1,PREFETCH=1,CLAMP=1,WM=64,WN=32 --algo warp_tiled:BK=8,READT=1,CLAMP=1,WM=128,WN=16 \
      --algo clblast
    probe_run "r$r f32 NN b$b $s" --size $s --batch $b --iters 100 --algo clblast --algo auto
  done
  for pad in 0 default; do
    x=(); [ $pad = 0 ] && x=(--ld-pad 0)
    probe_run "r$r tf32 4095 pad$pad" --size 4095 "${x[@]}" --iters 20 --algo tensor_core \
      --algo wgmma_tma:$T,PACKA=1,SETMAXNREG=1 --algo wgmma_tma:$T,PACKA=1 --algo wgmma_tma:$T,PACKA=3,SETMAXNREG=1
  done
done
} > $P 2>&1
cat $P
