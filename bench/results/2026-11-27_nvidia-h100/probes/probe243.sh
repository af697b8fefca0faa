#!/usr/bin/env bash
# Probe 243 (H100, the TF32 M <= 16 rules at 5 slots): the same question at M = 128, N T: the
# M <= 128 rule's 64-row tile (8 slots, one group per SM) and its 128-row wide form (6 slots)
# against shallower rings that fit two groups per SM, splits 1-4; and tf32x3's M <= 16 wide
# form (11 slots) against 5 and 6.
source .gpu/setup.sh
P=$OUT/probe243.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), (r.get("params") or "")[-70:], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 40 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe243.err | show "$tag"; }
B="BN=128,BK=32,WGN=128,GM=16,PACKA=3,PACKB=2,SWAP=1,ROUNDER=1"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for s in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336; do
  run "$s rule" --trans NT --size $s --iters 50 --algo tensor_core
  for bs in "64 8" "64 4" "64 3" "128 6" "128 3"; do
    set -- $bs
    for k in 1 2 3 4; do
      run "$s BM=$1 ST=$2 K=$k" --trans NT --size $s --iters 50 --algo "wgmma_tma:BM=$1,STAGES=$2,$B,SPLITK=$k"
    done
  done
done
X="BM=128,BN=16,WGN=16,SWAP=1,SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1"
for s in 16x28672x4096 16x11008x4096; do
  run "x3 $s rule" --trans NT --size $s --iters 50 --algo tensor_core_tf32x3
  for st in 11 6 5; do run "x3 $s ST=$st" --trans NT --size $s --iters 50 --algo "wgmma_tma:$X,STAGES=$st"; done
done
} > $P 2>&1
cat $P
