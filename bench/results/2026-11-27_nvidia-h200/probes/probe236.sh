#!/usr/bin/env bash
# Probe 236 (H200, 2348e78): tf32x3 at 16 < M <= 64, N T, on the H200: its M <= 128 rule (what
# tensor_core_tf32x3 runs there) against the H100's new M <= 32 / M <= 64 forms (X split in
# local memory, 64-row blocks, the 128-row tile as wide form), splits as the H100's rules give.
source .gpu/setup.sh
P=$OUT/probe236.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:100], r["status"], r.get("ms_median"), r.get("ms_min"), (r.get("note") or r.get("message") or "")[5:100], flush=True)' "$1" || echo "$1: no JSON"; }
B="SWAP=1,SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1"
run() { local tag=$1; shift; build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 "$@" 2>>$OUT/probe236.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
for m in 32 64; do
  bn=$(( m <= 32 ? 32 : 64 ))
  for nk in "4096x4096 2" "6144x4096 1" "4096x14336 2"; do
    set -- $nk
    run "rep$rep NT ${m}x$1" --trans NT --size ${m}x$1 --algo tensor_core_tf32x3 --algo "wgmma_tma:BM=64,BN=$bn,WGN=$bn,STAGES=6,$B,SPLITK=$2"
  done
  for n in 11008 28672; do
    run "rep$rep NT ${m}x${n}x4096" --trans NT --size ${m}x${n}x4096 --algo tensor_core_tf32x3 --algo "wgmma_tma:BM=128,BN=$bn,WGN=$bn,STAGES=6,$B,SPLITK=1"
  done
done
done
} > $P 2>&1
cat $P
