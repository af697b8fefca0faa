#!/usr/bin/env bash
# Probe 48: where step 7's READT=1 build loses 20% at 4096^3 NT (timing-only variants of
# .gpu/mkvar7.py, --no-check where the data is wrong); and whether triton's ptxas/nvdisasm are
# on the machine (to read NVIDIA's SASS of a dumped PTX).
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe48.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
T=BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16,CLAMP=0
run() { # label size trans check algos...
  local label=$1 size=$2 tr=$3 chk=$4; shift 4
  local args=(); for a in "$@"; do args+=(--algo "$a"); done
  timeout 120 build-gpu/clgemm --device nvidia --size $size --trans $tr --no-baseline --iters 40 $chk --format json -q "${args[@]}" 2>/dev/null | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results'][0]['rows']:
    print('$label', '$size', '$tr', r['algorithm'], r['status'], r.get('ms_median'), r.get('gflops'))"
}
{
for v in t0 ta tb tc; do
  export CLGEMM_KERNEL_DIR=$PWD/.gpu/var7/$v CLGEMM_CACHE_DIR=/tmp/c7_$v
  echo "-- regs $v"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1024 --trans NT --no-baseline --no-check --iters 3 --algo warp_tiled:$T,READT=1 2>&1 | grep -E "Used|rror" | head -1
  run $v 4096 NT --no-check warp_tiled:$T,READT=1
  run $v 128x4096x4096 NT --no-check warp_tiled:$T,READT=1,SPLITK=4
done
run t0-plain 4096 NN "" warp_tiled:$T
unset CLGEMM_KERNEL_DIR CLGEMM_CACHE_DIR
for v in t0 tc; do
  CLGEMM_KERNEL_DIR=$PWD/.gpu/var7/$v CLGEMM_CACHE_DIR=$OUT/cache_$v timeout 60 build-gpu/clgemm --device nvidia --size 1024 --trans NT --no-baseline --no-check --iters 1 --algo warp_tiled:$T,READT=1 >/dev/null 2>&1
done
CLGEMM_CACHE_DIR=$OUT/cache_plain timeout 60 build-gpu/clgemm --device nvidia --size 1024 --no-baseline --no-check --iters 1 --algo warp_tiled:$T >/dev/null 2>&1
ls -lR $OUT/cache_* | head -20
TD=$(python3 -c "import triton, os; print(os.path.dirname(triton.__file__))" 2>/dev/null)
echo "triton at $TD"; ls $TD/backends/nvidia/bin 2>/dev/null
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
