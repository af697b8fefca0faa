#!/usr/bin/env bash
# Probe 152.  (A) step 7 with KQW (the working tree on e1b27a2: float4s of a k-contiguous slice
# row that one warp's load takes, 2 by default at BK 16): fp32 N T and N N batches, CLBlast
# beside.  (B) the device's tests and the epilogues preset on e1b27a2 itself (a clean copy).
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe152.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --iters 50 --format json -q "$@" 2>>$OUT/probe152.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
W=warp_tiled:BK=16,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1,MAXNREG=128
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; echo "+KQW"; date -u
for round in r1 r2 r3; do
  for sz in "128x128x64 512" "512x512x64 64"; do set -- $sz
    run $round --trans NT --size $1 --batch $2 --algo auto --algo $W,KQW=4 --algo $W,KQW=1 --algo $W,KQW=4,APAD=8 --algo warp_tiled:BK=16,READT=1,KQW=4,MAXNREG=128
    run $round --trans NN --size $1 --batch $2 --no-baseline --algo auto --algo warp_tiled:BK=16,READT=1,KQW=4 --algo warp_tiled:BK=16,READT=1,KQW=1
  done
done
} > $P 2>&1
rm -rf /tmp/clean && mkdir -p /tmp/clean && tar xzf .gpu/head.tar.gz -C /tmp/clean && cp -r .gpu /tmp/clean/
(cd /tmp/clean && bash bench/device_session.sh --budget 420 tests epilogues > $OUT/session.log 2>&1)
tail -4 $OUT/session.log >> $P
tail -12 $P
