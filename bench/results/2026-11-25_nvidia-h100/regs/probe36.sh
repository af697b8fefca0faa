#!/usr/bin/env bash
# Probe 36: why fp32 warp_tiled runs 42.8 TFLOP/s at 4096^3 (46.8 on 2026-11-22, same tile).
# (a) the same tile built from older trees (2026-11-22 .. HEAD), (b) HEAD's register counts
# (-cl-nv-verbose) and HEAD with -cl-nv-maxrregcount=128 (two groups of 256 per SM).
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe36.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
for c in dbf7c79 484da27 0796c6c 7af91cd 5e488f9; do
  ( mkdir -p /tmp/t_$c && tar -xzf .gpu/tree_$c.tar.gz -C /tmp/t_$c && cd /tmp/t_$c &&
    meson setup b --buildtype=release >/dev/null && meson compile -C b clgemm ) > $OUT/build_$c.log 2>&1 &
done
wait
echo "builds done at $(( $(date +%s) - T0 )) s" > $P
TILE=BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16,CLAMP=0
{
for rep in 1 2; do
  for c in dbf7c79 484da27 0796c6c 7af91cd 5e488f9 HEAD; do
    b=/tmp/t_$c/b/clgemm; [ $c = HEAD ] && b=build-gpu/clgemm
    for sz in 4096 2048; do
      echo "== $c $sz rep $rep"
      timeout 120 $b --device nvidia --size $sz --no-baseline --algo warp_tiled:$TILE 2>&1 | grep -E "warp_tiled|rror"
    done
  done
done
echo "== registers"
for c in 484da27 0796c6c 7af91cd 5e488f9 HEAD; do
  b=/tmp/t_$c/b/clgemm; [ $c = HEAD ] && b=build-gpu/clgemm
  echo "-- $c"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 120 $b --device nvidia --size 1024 --no-baseline --iters 3 --algo warp_tiled:$TILE 2>&1 | grep -iE "registers|spill|gemm_warp" | head -8
done
echo "-- HEAD maxrregcount=128"
CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS="-cl-nv-verbose -cl-nv-maxrregcount=128" timeout 120 build-gpu/clgemm --device nvidia --size 1024 --no-baseline --iters 3 --algo warp_tiled:$TILE 2>&1 | grep -iE "registers|spill|gemm_warp" | head -8
echo "== HEAD, with and without -cl-nv-maxrregcount=128 (json)"
j() { local tag=$1; shift; timeout 200 build-gpu/clgemm --device nvidia --no-baseline --format json --iters 50 "$@" 2>>$OUT/probe36.err | python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], res["M"], res["N"], res["K"], res["trans"], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("params"), flush=True)' "$tag"; }
for rep in 1 2; do
for opt in none 128 120; do
  if [ $opt = none ]; then unset CLGEMM_BUILD_OPTIONS; else export CLGEMM_BUILD_OPTIONS=-cl-nv-maxrregcount=$opt; fi
  export CLGEMM_CACHE_DIR=/tmp/cache_$opt
  j "$opt/$rep" --size 4096 --algo warp_tiled:$TILE --algo auto
  j "$opt/$rep" --size 8192 --algo warp_tiled:$TILE
  j "$opt/$rep" --size 2048 --algo auto
  j "$opt/$rep" --size 4096 --trans NT --algo auto --algo warp_tiled:$TILE,READT=1
  for sz in 4096x6144x4096 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336 1000x3000x777 4095; do
    j "$opt/$rep" --size $sz --trans NT --algo auto
  done
  j "$opt/$rep" --size 512x512x64 --batch 64 --algo auto
  j "$opt/$rep" --size 128x128x64 --batch 512 --algo auto
done
done
unset CLGEMM_BUILD_OPTIONS
echo "done at $(( $(date +%s) - T0 )) s"
} >> $P 2>&1
tail -3 $P
