#!/usr/bin/env bash
# Probe 39: the 2026-11-22 body (w0) plus one of today's changes at a time (.gpu/var2).
# 2026-11-22's source): variants of cl/07_warp_tiled.cl (.gpu/var/vN, CLGEMM_KERNEL_DIR).
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe39.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
TILE=BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16,CLAMP=0
j() { local tag=$1; shift; timeout 200 build-gpu/clgemm --device nvidia --no-baseline --format json --iters 60 "$@" 2>>$OUT/probe39.err | python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], res["M"], res["N"], res["K"], res["trans"], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' "$tag"; }
{
for v in w0 w1 w2 w3 w4 w5; do
  export CLGEMM_KERNEL_DIR=$PWD/.gpu/var2/$v CLGEMM_CACHE_DIR=/tmp/c_$v
  echo "-- $v registers NN, then NT READT=1"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1024 --no-baseline --iters 3 --algo warp_tiled:$TILE 2>&1 | grep -E "Used|spill|FAIL|rror" | head -4
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1024 --no-baseline --iters 3 --epilogue bias_gelu --out bf16 --algo warp_tiled:$TILE 2>&1 | grep -E "Used|spill|FAIL|rror" | head -4
done
for rep in 1 2; do
for v in w0 w1 w2 w3 w4 w5; do
  export CLGEMM_KERNEL_DIR=$PWD/.gpu/var2/$v CLGEMM_CACHE_DIR=/tmp/c_$v
  j "$v/$rep" --size 4096 --algo warp_tiled:$TILE
done
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
