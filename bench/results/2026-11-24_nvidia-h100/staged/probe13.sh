#!/usr/bin/env bash
# Probe: the 16-bit batch as the layouts preset runs it (with CLBlast's row) and as probe11 ran
# it (--no-baseline --iters 50), twice each, and both 16-bit batch shapes.
source .gpu/setup.sh
C=build-gpu/clgemm
for i in 1 2; do
 for sz in "64 512x512x64" "512 128x128x64"; do set -- $sz
  echo "== batch $1 $2, as the preset"; $C --device nvidia --size $2 --dtype bf16 --algo tensor_core --batch $1 --out bf16 2>&1 | grep -E "tensor_core|clblast" | tail -2
  echo "== batch $1 $2, --no-baseline --iters 50"; $C --device nvidia --size $2 --dtype bf16 --algo tensor_core --algo 'wgmma_tma:BN=128,WGN=128,STAGES=2' --algo mma --batch $1 --out bf16 --no-baseline --iters 50 2>&1 | grep -E "^ *(tensor_core|wgmma|mma) " | tail -3
  echo "== batch $1 $2, with the baseline, --iters 50"; $C --device nvidia --size $2 --dtype bf16 --algo tensor_core --algo mma --batch $1 --out bf16 --iters 50 2>&1 | grep -E "^ *(tensor_core|mma|clblast) " | tail -3
 done
done > $OUT/probe13.txt 2>&1
cat $OUT/probe13.txt
