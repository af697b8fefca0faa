#!/usr/bin/env bash
# Probe 46: step 7 READT=1 with 16-value K slices (rows of 64 bytes per slice of both operands
# instead of 32), with and without PREFETCH and CLAMP, at M = 128 NT and 4096^3 NT.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe46.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
T=BM=128,BN=128,TM=8,TN=8,WM=128,WN=16
run() { # label size trans algos...
  local label=$1 size=$2 tr=$3; shift 3
  local args=(); for a in "$@"; do args+=(--algo "$a"); done
  timeout 120 build-gpu/clgemm --device nvidia --size $size --trans $tr --no-baseline --iters 40 --format json -q "${args[@]}" 2>/dev/null | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results'][0]['rows']:
    print('$label', '$size', '$tr', r['algorithm'], r['status'], r.get('ms_median'), r.get('gflops'))"
}
{
for v in r0; do
  export CLGEMM_KERNEL_DIR=$PWD/.gpu/var6/$v CLGEMM_CACHE_DIR=/tmp/c_$v
  for p in "BK=16,READT=1" "BK=16,READT=1,PREFETCH=0" "BK=16,READT=1,CLAMP=1"; do
    echo "-- regs $p"
    CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1024 --trans NT --no-baseline --iters 3 --algo warp_tiled:$T,$p 2>&1 | grep -E "Used|FAIL|rror" | head -1
    run "$v" 128x4096x4096 NT warp_tiled:$T,$p,SPLITK=4 warp_tiled:$T,$p,SPLITK=8
    run "$v" 128x4096x14336 NT warp_tiled:$T,$p,SPLITK=4 warp_tiled:$T,$p,SPLITK=8
    run "$v" 4096 NT warp_tiled:$T,$p
  done
  run "$v" 4096 NN warp_tiled:$T,BK=16 warp_tiled:$T
done
unset CLGEMM_KERNEL_DIR CLGEMM_CACHE_DIR
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
