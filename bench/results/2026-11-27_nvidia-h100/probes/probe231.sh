#!/usr/bin/env bash
# Probe 231 (tree of fdf1b42 + the H100 tuning file's new tf32x3 M <= 16 rules): what
# tensor_core_tf32x3 chooses and runs, against the former rule's form, at M <= 16 (N T, N N, T N);
# and M <= 4, where a skinny rule (step 11, fp32) still runs, against the new wgmma form.
source .gpu/setup.sh
P=$OUT/probe231.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:100], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), r.get("error"), (r.get("note") or r.get("message") or "")[5:120], flush=True)' "$1" || echo "$1: no JSON"; }
OLD="wgmma_tma:BM=64,BN=16,WGN=16,STAGES=8,SWAP=1,SPLIT=1,PACKA=3"
NEW="$OLD,PACKB=2,ROUNDER=1"
SK="skinny:WG=256,KT=32,RN=8,UNROLL=1,BM=16"
run() { local tag=$1; shift; build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 "$@" 2>>$OUT/probe231.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
run "rep$rep NT 16x11008x4096" --trans NT --size 16x11008x4096 --algo tensor_core_tf32x3 --algo "$OLD,SPLITK=1" --algo "$NEW,SPLITK=1"
run "rep$rep NT 16x28672x4096" --trans NT --size 16x28672x4096 --algo tensor_core_tf32x3
run "rep$rep NT 12x4096x4096" --trans NT --size 12x4096x4096 --algo tensor_core_tf32x3 --algo "$OLD,SPLITK=2"
run "rep$rep NN 16x6144x4096" --size 16x6144x4096 --algo tensor_core_tf32x3 --algo "$OLD,SPLITK=1"
run "rep$rep NN 8x3000x1000" --size 8x3000x1000 --algo tensor_core_tf32x3 --algo "$OLD,SPLITK=1" --algo "skinny:WG=512,KT=64,UNROLL=2,BM=16"
run "rep$rep TN 16x4096x4096" --trans TN --size 16x4096x4096 --algo tensor_core_tf32x3 --algo "$OLD,SPLITK=2"
for s in 2x4096x4096 4x4096x4096 4x28672x4096 4x4096x14336 2x6144x4096; do
  run "rep$rep NT $s" --trans NT --size $s --algo tensor_core_tf32x3 --algo "$NEW,SPLITK=2" --algo "$NEW,SPLITK=1"
done
run "rep$rep NN 4x4096x4096" --size 4x4096x4096 --algo tensor_core_tf32x3 --algo "$NEW,SPLITK=2"
done
} > $P 2>&1
cat $P
