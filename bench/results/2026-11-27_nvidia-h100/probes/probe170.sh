#!/usr/bin/env bash
# Probe 170: fp32 auto at M = 128 (N T): probe169's swapped 128 x 128 step 7 (the weight is
# the plain kernel's A, X packed; 127 registers) with enough slices for two groups per SM;
# two rounds; cuBLAS fp32 after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe170.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 "$@" 2>>$OUT/probe170.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag" || echo "$tag $*: no JSON"; }
S2=warp_tiled:SWAP=1,READT=0
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
printf 'S2 registers: '; CLGEMM_CACHE_DIR=/tmp/cv CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose build-gpu/clgemm --device nvidia --no-baseline -q --iters 3 --trans NT --size 128x4096x4096 --algo $S2,SPLITK=8 2>&1 | grep -E "registers|spill" | sort | uniq -c
for round in r1 r2; do
  for sz in 128x4096x4096 128x6144x4096 128x4096x14336 100x5120x5120 96x3000x1000; do
    run "$round $sz" --trans NT --size $sz --algo auto --algo $S2,SPLITK=6 --algo $S2,SPLITK=8 --algo $S2,SPLITK=12 --algo $S2,SPLITK=16 --algo $S2,SPLITK=16,BK=8,CLAMP=1
  done
  run "$round 128x28672x4096" --trans NT --size 128x28672x4096 --algo auto --algo $S2,SPLITK=1 --algo $S2,SPLITK=2 --algo $S2,SPLITK=3 --algo $S2,SPLITK=4
  run "$round 256x4096x4096" --trans NT --size 256x4096x4096 --algo auto --algo $S2,SPLITK=2 --algo $S2,SPLITK=4 --algo $S2,SPLITK=8
done
} > $P 2>&1
tail -5 $P
