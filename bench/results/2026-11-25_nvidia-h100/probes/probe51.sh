#!/usr/bin/env bash
# Probe 51: step 7 READT=1 with other paddings of its local rows (APAD 0, 4 = default, 8, 12):
# probe50's SASS shows ptxas scheduling the B^T build's loop differently (more LDS results in
# flight) where B's local rows are 132 floats instead of the plain build's 128.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe51.txt
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
for a in 0 4 8 12; do
  echo "-- regs APAD=$a"
  for tr in NN NT; do
    CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1000x1000x999 --trans $tr --no-baseline --iters 3 --algo warp_tiled:$T,READT=1,APAD=$a 2>&1 | grep -E "Used|rror|FAIL" | head -3
  done
  run a$a 4096 NN warp_tiled:$T,APAD=$a
  run a$a 4096 NT warp_tiled:$T,READT=1,APAD=$a
  run a$a 128x4096x4096 NT warp_tiled:$T,READT=1,APAD=$a,SPLITK=4 warp_tiled:$T,READT=1,APAD=$a,SPLITK=8
  run a$a 128x4096x14336 NT warp_tiled:$T,READT=1,APAD=$a,SPLITK=4 warp_tiled:$T,READT=1,APAD=$a,SPLITK=8
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
