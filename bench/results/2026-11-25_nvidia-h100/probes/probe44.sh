#!/usr/bin/env bash
# Probe 44: step 7 with B^T read in place (READT=1, 136 registers at HEAD): registers and time of
# variants (.gpu/var6: r0 HEAD, r1 A and B addressed as argument + one int offset) and tile
# parameters, at 128x4096x4096 / 128x28672x4096 NT (split as auto) and 4096^3 NT; plain NN 4096^3.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe44.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
T=BM=128,BN=128,BK=8,TM=8,TN=8,CLAMP=0
run() { # label size trans algos...
  local label=$1 size=$2 tr=$3; shift 3
  local args=(); for a in "$@"; do args+=(--algo "$a"); done
  timeout 120 build-gpu/clgemm --device nvidia --size $size --trans $tr --no-baseline --iters 40 --format csv -q "${args[@]}" 2>&1 | grep -v "^device" | awk -F, '{print $7, $8, $9, $12, $20}' | sed "s/^/$label $size $tr /"
}
{
for v in r0 r1; do
  export CLGEMM_KERNEL_DIR=$PWD/.gpu/var6/$v CLGEMM_CACHE_DIR=/tmp/c_$v
  for p in "WM=128,WN=16,READT=1" "WM=128,WN=16,READT=1,PREFETCH=0" "WM=64,WN=32,READT=1" "WM=32,WN=64,READT=1" "WM=128,WN=16,READT=0"; do
    echo "-- regs $v $p"
    CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1024 --trans NT --no-baseline --iters 3 --algo warp_tiled:$T,$p 2>&1 | grep -E "Used|FAIL|rror" | head -3
  done
  for p in "WM=128,WN=16,READT=1" "WM=128,WN=16,READT=1,PREFETCH=0" "WM=64,WN=32,READT=1" "WM=32,WN=64,READT=1"; do
    run "$v $p" 128x4096x4096 NT warp_tiled:$T,$p,SPLITK=4 warp_tiled:$T,$p,SPLITK=8
    run "$v $p" 128x28672x4096 NT warp_tiled:$T,$p,SPLITK=2 warp_tiled:$T,$p,SPLITK=4
    run "$v $p" 4096 NT warp_tiled:$T,$p
  done
  run "$v plain" 4096 NN warp_tiled:$T,WM=128,WN=16
  run "$v auto" 4096 NT auto
done
unset CLGEMM_KERNEL_DIR CLGEMM_CACHE_DIR
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
