#!/usr/bin/env bash
# Probe 237 (H100): A off 16 bytes read in classes of rows (A_CLASSES, cl/mma/tma_a_classes.h)
# instead of the layout pass: tight (--ld-pad 0) against aligned runs at 4095^3 and
# 1000x3000x777, TF32 / bf16 / f16, and a sweep of small odd shapes for correctness.
source .gpu/setup.sh
P=$OUT/probe237.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:60], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("message") or "")[:120], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe237.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
# correctness first: small shapes, every class count, odd M edges
for d in f32 bf16 f16; do
  for sz in 9x64x77 8x130x33 67x130x77 131x64x200 200x300x129 257x96x1001; do
    for pad in 0 1 2 3 5; do
      run "chk $d $sz pad$pad" --dtype $d --size $sz --ld-pad $pad --iters 3 --algo tensor_core --algo "wgmma_tma:PACKA=3"
    done
  done
done 2>&1 | grep -v " ok " ; echo "(correctness: lines above are the failures)"
for rep in 1 2; do
  for d in f32 bf16 f16; do
    for sz in 4095 1000x3000x777; do
      run "rep$rep $d $sz pad0" --dtype $d --size $sz --ld-pad 0 --iters 50 --algo tensor_core
      run "rep$rep $d $sz padD" --dtype $d --size $sz --iters 50 --algo tensor_core
    done
    run "rep$rep $d 4095 NT pad0" --dtype $d --size 4095 --trans NT --ld-pad 0 --iters 50 --algo tensor_core
    run "rep$rep $d 4095 NT padD" --dtype $d --size 4095 --trans NT --iters 50 --algo tensor_core
  done
done
} > $P 2>&1
cat $P
