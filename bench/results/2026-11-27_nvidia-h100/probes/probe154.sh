#!/usr/bin/env bash
# Probe 154 (6ba3bbf): fp32 N T / T N batches, the capped pipelined step 7 with the warp tiles
# the cap was not tried with (32 x 64, 16 x 128; 64 x 32 is the rule, 128 x 16 probe148's),
# CLBlast beside, three rounds.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe154.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --iters 50 --format json -q "$@" 2>>$OUT/probe154.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
W=warp_tiled:BK=16,READT=1,PREFETCH=1,MAXNREG=128
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2 r3; do
  for tr in NT TN; do
    for sz in "128x128x64 512" "512x512x64 64"; do set -- $sz
      run $round --trans $tr --size $1 --batch $2 --algo auto --algo $W,WM=32,WN=64,CLAMP=1 --algo $W,WM=16,WN=128,CLAMP=1 --algo $W,WM=32,WN=64 --algo $W,WM=64,WN=32
    done
  done
done
} > $P 2>&1
tail -3 $P
