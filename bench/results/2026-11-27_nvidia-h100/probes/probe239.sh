#!/usr/bin/env bash
# Probe 239 (H100): A off 16 bytes read in classes of rows (A_CLASSES, cl/mma/tma_a_classes.h)
# instead of the layout pass: tight (--ld-pad 0) against aligned runs at 4095^3 and
# 1000x3000x777, TF32 / bf16 / f16, and a sweep of small odd shapes for correctness.
source .gpu/setup.sh
P=$OUT/probe239.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:60], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("message") or "")[:120], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe239.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
first=$(run "first 4095 pad0" --size 4095 --ld-pad 0 --iters 3 --algo "wgmma_tma:PACKA=3,SETMAXNREG=1"); echo "$first"
case "$first" in *" ok "*) ;; *) echo "first run failed: stop"; exit 0;; esac
for sz in 9x64x77 8x130x33 67x130x77 131x64x200 200x300x129 257x96x1001 1000x300x777; do
  for pad in 0 1 2 3 5; do
    for tr in NN NT; do
      run "chk $sz pad$pad $tr" --size $sz --trans $tr --ld-pad $pad --iters 3 --algo tensor_core --algo "wgmma_tma:PACKA=3,SETMAXNREG=1" --algo "wgmma_tma:PACKA=3,SETMAXNREG=1,SPLITK=3" --algo "wgmma_tma:PACKA=3,SPLIT=1,BN=128,WGN=128,SETMAXNREG=1" --algo "wgmma_tma:PACKA=2,PACKB=2,SETMAXNREG=1" --algo "wgmma_tma:BK=16,PACKA=3,SETMAXNREG=1"
    done
  done
done 2>&1 | grep -v " ok " ; echo "(correctness: lines above are the failures)"
for rep in 1 2; do
  for sz in 4095 1000x3000x777 8191 2047x4096x1023; do
    for tr in NN NT; do
      run "rep$rep $sz $tr pad0" --size $sz --trans $tr --ld-pad 0 --iters 50 --algo tensor_core --algo tensor_core_tf32x3
      run "rep$rep $sz $tr padD" --size $sz --trans $tr --iters 50 --algo tensor_core --algo tensor_core_tf32x3
    done
  done
done
} > $P 2>&1
cat $P
