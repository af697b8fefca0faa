#!/usr/bin/env bash
# Probe 246 (H100): TF32 at M = 128, N T, with X in two 64-column tiles (cuBLAS's choice in
# probe245 is a 64 x 64 tile, unsplit): the weight in 64-row blocks against X's 64 columns,
# 2 x N/64 groups, rings of 4-10 slots (two groups per SM at <= 6), splits 1-2; the rule beside.
source .gpu/setup.sh
P=$OUT/probe246.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("params") or "")[:100], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 40 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe246.err | show "$tag"; }
T="SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2; do
for s in 128x4096x4096 128x6144x4096 128x4096x14336 96x4096x4096; do
  run "r$r $s rule" --trans NT --size $s --iters 50 --algo tensor_core
  for st in 4 6 8 10; do for k in 1 2; do
    run "r$r $s BM=64 BN=64 ST=$st K=$k" --trans NT --size $s --iters 50 --algo "wgmma_tma:BM=64,BN=64,WGN=64,STAGES=$st,$T,SPLITK=$k"
  done; done
  run "r$r $s BM=128 BN=64 ST=6 K=1" --trans NT --size $s --iters 50 --algo "wgmma_tma:BM=128,BN=64,WGN=64,STAGES=6,$T,SPLITK=1"
done
done
} > $P 2>&1
cat $P
