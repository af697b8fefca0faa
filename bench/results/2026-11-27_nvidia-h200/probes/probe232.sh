#!/usr/bin/env bash
# Probe 232 (H200, 140c26c): tf32x3 at M <= 16 on the H200, whose tuning file still has the
# former rules (X split by the pre-pass; step 11 at M <= 4), against the H100's new form
# (X split in local memory by the rounding warpgroup, 64-row tile; 128-row tile as wide form).
source .gpu/setup.sh
P=$OUT/probe232.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:100], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), (r.get("note") or r.get("message") or "")[5:110], flush=True)' "$1" || echo "$1: no JSON"; }
NEW="wgmma_tma:BM=64,BN=16,WGN=16,STAGES=8,SWAP=1,SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1"
WIDE="wgmma_tma:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1"
run() { local tag=$1; shift; build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 "$@" 2>>$OUT/probe232.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
for sk in "16x4096x4096 2" "16x6144x4096 1" "16x4096x14336 2" "8x4096x4096 2" "4x4096x4096 2" "4x4096x14336 2" "2x6144x4096 1"; do
  set -- $sk
  run "rep$rep NT $1" --trans NT --size $1 --algo tensor_core_tf32x3 --algo "$NEW,SPLITK=$2"
done
for s in 16x11008x4096 16x28672x4096; do
  run "rep$rep NT $s" --trans NT --size $s --algo tensor_core_tf32x3 --algo "$NEW,SPLITK=1" --algo "$WIDE,SPLITK=1"
done
run "rep$rep NN 16x4096x4096" --size 16x4096x4096 --algo tensor_core_tf32x3 --algo "$NEW,SPLITK=2"
done
} > $P 2>&1
cat $P
