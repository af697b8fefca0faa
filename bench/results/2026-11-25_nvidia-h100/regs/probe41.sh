#!/usr/bin/env bash
# Probe 41: with GEMM_C_MOVE fixed (ad962ad) today's step 7 uses 136 registers, not 127: which
# other part (x1 plain float stores, x2 2026-11-22's fetch helpers, x3 its A/B moves and guard,
# x4 3-D local arrays, x5 the old body with today's stores, x6 the old body with the fixed move,
# x7 x1+x2+x3).
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe41.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
TILE=BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16,CLAMP=0
{
for v in x0 x1 x2 x3 x4 x5 x6 x7; do
  export CLGEMM_KERNEL_DIR=$PWD/.gpu/var3/$v CLGEMM_CACHE_DIR=/tmp/c_$v
  echo "-- $v"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1024 --no-baseline --iters 3 --algo warp_tiled:$TILE 2>&1 | grep -E "Used|FAIL|rror" | head -3
  timeout 60 build-gpu/clgemm --device nvidia --size 4096 --no-baseline --iters 60 --algo warp_tiled:$TILE 2>&1 | grep -E "^warp_tiled|FAIL" | head -2
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
