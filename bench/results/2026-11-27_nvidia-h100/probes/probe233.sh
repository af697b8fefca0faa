#!/usr/bin/env bash
# Probe 233 (febaf50): tf32x3 at 16 < M <= 128 (the M <= 128 rule: 128 x 128 swapped, X split by
# the pre-pass) against X split in local memory (PACKB=2) by the rounding warpgroup, on the
# rule's tile and on 64-row tiles, N T, splits 1, 2, 4.
source .gpu/setup.sh
P=$OUT/probe233.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:100], r["status"], r.get("ms_median"), r.get("ms_min"), (r.get("note") or r.get("message") or "")[5:140], flush=True)' "$1" || echo "$1: no JSON"; }
R="wgmma_tma:BM=128,BN=128,WGN=128,STAGES=4,SWAP=1,SPLIT=1,PACKA=3"
L64="wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,SWAP=1,SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1"
L64B="wgmma_tma:BM=64,BN=64,WGN=64,STAGES=6,SWAP=1,SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1"
run() { local tag=$1; shift; build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 "$@" 2>>$OUT/probe233.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for s in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336 64x4096x4096 32x4096x4096; do
  a=(--algo tensor_core_tf32x3)
  for sp in 1 2 4; do a+=(--algo "$R,SPLITK=$sp" --algo "$R,PACKB=2,ROUNDER=1,SPLITK=$sp" --algo "$L64,SPLITK=$sp"); done
  a+=(--algo "$L64B,SPLITK=1" --algo "$L64B,SPLITK=2")
  run "NT $s" --trans NT --size $s "${a[@]}"
done
} > $P 2>&1
cat $P
