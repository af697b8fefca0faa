#!/usr/bin/env bash
# Probe 42: gemm_store4 (cl/epilogue.h) reshaped, step 7 NN at 4096^3 and its registers.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe42.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
TILE=BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16,CLAMP=0
{
for v in y0 y1 y2 y3 y4 y5; do
  export CLGEMM_KERNEL_DIR=$PWD/.gpu/var4/$v CLGEMM_CACHE_DIR=/tmp/c_$v
  echo "-- $v"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1024 --no-baseline --iters 3 --algo warp_tiled:$TILE 2>&1 | grep -E "Used|FAIL|rror" | head -3
  timeout 60 build-gpu/clgemm --device nvidia --size 4096 --no-baseline --iters 60 --algo warp_tiled:$TILE 2>&1 | grep -E "^warp_tiled|FAIL" | head -2
  timeout 60 build-gpu/clgemm --device nvidia --size 4096 --no-baseline --iters 60 --algo warp_tiled:$TILE,READT=1 --trans NT 2>&1 | grep -E "^warp_tiled|FAIL" | head -2
  timeout 60 build-gpu/clgemm --device nvidia --size 128x4096x4096 --trans NT --no-baseline --iters 100 --algo auto 2>&1 | grep -E "^auto|FAIL" | head -2
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
