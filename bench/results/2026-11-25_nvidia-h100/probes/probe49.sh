#!/usr/bin/env bash
# Probe 49: step 7's float4 loads with an L2 prefetch-size hint (.gpu/mkvar8.py): registers and
# time of plain NN 4096^3, READT=1 NT 4096^3 and M = 128 (split 4), each verified.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe49.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
T=BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16,CLAMP=0
run() { # label size trans algos...
  local label=$1 size=$2 tr=$3; shift 3
  local args=(); for a in "$@"; do args+=(--algo "$a"); done
  timeout 120 build-gpu/clgemm --device nvidia --size $size --trans $tr --no-baseline --iters 40 --format json -q "${args[@]}" 2>/dev/null | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results'][0]['rows']:
    print('$label', '$size', '$tr', r['algorithm'], r['status'], r.get('ms_median'), r.get('gflops'))"
}
{
for rep in 1 2; do
for v in p0 p1 p2 p3; do
  export CLGEMM_KERNEL_DIR=$PWD/.gpu/var8/$v CLGEMM_CACHE_DIR=/tmp/c8_$v
  if [ $rep = 1 ]; then
    echo "-- regs $v"
    for tr in NN NT; do
      CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1000x1000x999 --trans $tr --no-baseline --iters 3 --algo warp_tiled:$T,READT=1 2>&1 | grep -E "Used|rror|FAIL|^warp" | head -3
    done
  fi
  run $v 4096 NN warp_tiled:$T
  run $v 4096 NT warp_tiled:$T,READT=1
  run $v 128x4096x4096 NT warp_tiled:$T,READT=1,SPLITK=4
  run $v 128x4096x14336 NT warp_tiled:$T,READT=1,SPLITK=4
done
done
unset CLGEMM_KERNEL_DIR CLGEMM_CACHE_DIR
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
