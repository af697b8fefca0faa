#!/usr/bin/env bash
# Probe 61: why step 10's one-launch split is slower than no split for 16-bit data (probe60:
# 128x4096x4096 f16 BM=64 SPLITK=2 0.029 ms against 0.017 unsplit, a group with half the K
# taking longer than one with all of it).  The working tree carries a temporary knob in
# cl/mma/tma_ksplit.h, KSPLIT_DEBUG (bits: 1 no partial writes, 2 no fences, 4 no sum,
# 8 no count: every slice stores), built in with CLGEMM_BUILD_OPTIONS and timed with
# --no-check (the results are wrong by design); plus GM=1, a split without SWAP, TF32's rule
# with and without its split, and NVIDIA's register report for the split and unsplit builds.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$OUT/probe61.txt
run() { local tag=$1 dt=$2 sz=$3 opts=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local chk=(); [ -n "$opts" ] && chk=(--no-check)
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  CLGEMM_NO_CACHE=1 CLGEMM_BUILD_OPTIONS="$opts" timeout 300 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans NT --size $sz --iters 100 --format json "${chk[@]}" "${a[@]}" 2>>$OUT/probe61.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' $tag $dt $sz "${opts:-none}"; }
R="wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1"
T="wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
{
for v in "$R,SPLITK=1" "$R,SPLITK=2"; do
  echo "== regs $v"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 120 build-gpu/clgemm --device nvidia --no-baseline --dtype f16 --out f16 --trans NT --size 128x4096x4096 --iters 1 --warmup 0 --algo "$v" 2>&1 | grep -iE "registers|spill|stack|lmem|bytes" | head -8
done
for rep in 1 2; do
  run r$rep f16 128x4096x4096 "" "$R,SPLITK=1" "$R,SPLITK=2" "$R,SPLITK=2,GM=1" "$R,SPLITK=4"
  for d in 1 2 4 8 15; do run r$rep f16 128x4096x4096 "-DKSPLIT_DEBUG=$d" "$R,SPLITK=2" "$R,SPLITK=4"; done
  run r$rep f16 512x4096x4096 "" "wgmma_tma:BM=128,BN=128,WGN=128,STAGES=4,SPLITK=1" "wgmma_tma:BM=128,BN=128,WGN=128,STAGES=4,SPLITK=2"
  run r$rep f16 128x28672x4096 "" "$R,SPLITK=1" "$R,SPLITK=2"
  run r$rep f16 128x28672x4096 "-DKSPLIT_DEBUG=15" "$R,SPLITK=2"
  run r$rep f32 128x4096x4096 "" "$T,SPLITK=1" "$T,SPLITK=3"
  run r$rep f32 128x4096x4096 "-DKSPLIT_DEBUG=15" "$T,SPLITK=3"
  run r$rep f32 128x4096x4096 "-DKSPLIT_DEBUG=2" "$T,SPLITK=3"
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -2 $P
