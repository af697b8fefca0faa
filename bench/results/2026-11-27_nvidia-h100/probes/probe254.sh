#!/usr/bin/env bash
# Probe 254 (H100): the second-group trade (probes 241, 244) where other small-M rules fill an
# SM's local memory with one group: 16-bit M <= 16 (64 x 16 tile, 16 slots = 160 KiB) at 8,
# 10 and 12 slots; TF32's M <= 32 and M <= 64 wide forms (128 x 32 at 8 slots, 128 x 64 at 6)
# at 5 and 4.  N T, two interleaved rounds, unsplit as the rules run these shapes.
source .gpu/setup.sh
P=$OUT/probe254.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("params") or "")[:110], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 40 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe254.err | show "$tag"; }
H="BM=64,BN=16,WGN=16,SWAP=1,INFLIGHT=1"
T="SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2; do
  for d in bf16 f16; do for s in 16x28672x4096 16x11008x4096 16x6144x4096 16x4096x14336; do
    run "r$r $d $s rule" --trans NT --dtype $d --out $d --size $s --iters 100 --algo tensor_core
    for st in 16 12 10 8; do run "r$r $d $s ST=$st" --trans NT --dtype $d --out $d --size $s --iters 100 --algo "wgmma_tma:$H,STAGES=$st"; done
  done; done
  for s in 32x28672x4096 32x11008x4096; do
    run "r$r tf32 $s rule" --trans NT --size $s --iters 100 --algo tensor_core
    for st in 8 5; do run "r$r tf32 $s W32 ST=$st" --trans NT --size $s --iters 100 --algo "wgmma_tma:BM=128,BN=32,WGN=32,$T,STAGES=$st"; done
  done
  for s in 64x28672x4096 64x11008x4096; do
    run "r$r tf32 $s rule" --trans NT --size $s --iters 100 --algo tensor_core
    for st in 6 4; do run "r$r tf32 $s W64 ST=$st" --trans NT --size $s --iters 100 --algo "wgmma_tma:BM=128,BN=64,WGN=64,$T,STAGES=$st"; done
  done
done
} > $P 2>&1
cat $P
