#!/usr/bin/env bash
# Probe 153 (2b768c7 + step 7's K-major tiles, KMAJOR=1, uncommitted): fp32 N T batches, CLBlast
# beside, three rounds; N T at M = 128 and 4096^3; register counts (-cl-nv-verbose).
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe153.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --iters 50 --format json -q "$@" 2>>$OUT/probe153.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
regs() { CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose build-gpu/clgemm --device nvidia --no-baseline --iters 1 --warmup 0 "$@" 2>&1 | grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill (stores|loads)" | sort | uniq | tr '\n' ' '; echo " <- $*"; }
W=warp_tiled:BK=16,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1
K=$W,KMAJOR=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
echo "== registers"
for a in $W,MAXNREG=128 $K $K,MAXNREG=128 $K,PREFETCH=0 warp_tiled:BK=16,READT=1,KMAJOR=1 warp_tiled:BK=8,READT=1,KMAJOR=1,WM=64,WN=32; do regs --size 128x128x64 --batch 2 --trans NT --algo $a; done
echo "== batches"
for round in r1 r2 r3; do
  for sz in "128x128x64 512" "512x512x64 64"; do set -- $sz
    run $round --trans NT --size $1 --batch $2 --algo auto --algo $K --algo $K,MAXNREG=128 --algo $K,PREFETCH=0 --algo $K,PREFETCH=0,MAXNREG=128 \
      --algo warp_tiled:BK=16,READT=1,KMAJOR=1 --algo warp_tiled:BK=16,READT=1,KMAJOR=1,MAXNREG=128 --algo warp_tiled:BK=8,READT=1,KMAJOR=1,WM=64,WN=32,MAXNREG=128
  done
done
echo "== M = 128 and 4096^3, N T"
for round in r1 r2; do
  run $round --trans NT --size 128x4096x4096 --no-baseline --algo auto --algo warp_tiled:READT=1,SPLITK=4 --algo warp_tiled:READT=1,SPLITK=4,KMAJOR=1 --algo warp_tiled:READT=1,SPLITK=4,KMAJOR=1,BK=16 --algo warp_tiled:READT=1,SPLITK=4,KMAJOR=1,BK=16,WM=64,WN=32,MAXNREG=128
  run $round --trans NT --size 4096 --no-baseline --algo auto --algo warp_tiled:READT=1 --algo warp_tiled:READT=1,KMAJOR=1 --algo warp_tiled:READT=1,KMAJOR=1,BK=16,MAXNREG=128 --algo warp_tiled:READT=1,KMAJOR=1,BK=16,WM=64,WN=32,MAXNREG=128
done
} > $P 2>&1
tail -3 $P
