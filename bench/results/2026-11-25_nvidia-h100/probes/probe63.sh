#!/usr/bin/env bash
# Probe 63: where the new one-launch split's remaining time goes (probe62: f16 SPLITK=2 at
# 128x4096x4096 still 0.020 ms against 0.017 unsplit; TF32's SPLITK=3 rule 0.046 against 0.037
# with the whole finish left out in probe61).  KSPLIT_DEBUG (cl/mma/tma_ksplit.h, a measuring
# aid): bit 1 no fences, 2 no sum, 4 no partial writes; timed with --no-check.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$OUT/probe63.txt
run() { local tag=$1 dt=$2 sz=$3 opts=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local chk=(); [ -n "$opts" ] && chk=(--no-check)
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  CLGEMM_NO_CACHE=1 CLGEMM_BUILD_OPTIONS="$opts" timeout 300 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans NT --size $sz --iters 100 --format json "${chk[@]}" "${a[@]}" 2>>$OUT/probe63.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' $tag $dt $sz "${opts:-none}"; }
R="wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1"
T="wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
{
for v in "$R,SPLITK=2" "$T,SPLITK=3"; do
  echo "== regs $v"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 120 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size 128x4096x4096 --iters 1 --warmup 0 --algo "$v" 2>&1 | grep -iE "Used|spill" | head -4
done
for rep in 1 2; do
  run r$rep f16 128x4096x4096 "" "$R,SPLITK=1" "$R,SPLITK=2" "$R,SPLITK=3"
  run r$rep f32 128x4096x4096 "" "$T,SPLITK=1" "$T,SPLITK=3"
  for d in 1 2 4 3 6 7; do
    run r$rep f16 128x4096x4096 "-DKSPLIT_DEBUG=$d" "$R,SPLITK=2" "$R,SPLITK=3"
    run r$rep f32 128x4096x4096 "-DKSPLIT_DEBUG=$d" "$T,SPLITK=3"
  done
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -1 $P
