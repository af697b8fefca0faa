#!/usr/bin/env bash
# Probe 45: probe44's timings again (its CSV parse split quoted parameters): step 7 READT=1 with
# and without PREFETCH (136 / 124 registers), r0 (HEAD) and r1 (int offsets), at M = 128 NT with
# several splits and at 4096^3 NT, beside auto.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe45.txt
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
for v in r0 r1; do
  export CLGEMM_KERNEL_DIR=$PWD/.gpu/var6/$v CLGEMM_CACHE_DIR=/tmp/c_$v
  for p in "READT=1" "READT=1,PREFETCH=0"; do
    run "$v" 128x4096x4096 NT warp_tiled:$T,$p,SPLITK=4 warp_tiled:$T,$p,SPLITK=8 warp_tiled:$T,$p,SPLITK=16
    run "$v" 128x28672x4096 NT warp_tiled:$T,$p,SPLITK=2 warp_tiled:$T,$p,SPLITK=4
    run "$v" 128x4096x14336 NT warp_tiled:$T,$p,SPLITK=4 warp_tiled:$T,$p,SPLITK=8
    run "$v" 4096 NT warp_tiled:$T,$p
  done
  run "$v" 4096 NN warp_tiled:$T warp_tiled:$T,PREFETCH=0
  run "$v" 4096 NT auto
done
unset CLGEMM_KERNEL_DIR CLGEMM_CACHE_DIR
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
