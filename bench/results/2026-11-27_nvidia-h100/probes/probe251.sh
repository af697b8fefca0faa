#!/usr/bin/env bash
# Probe 251 (H100): fp32 strided batches N T (512 x 128^2 x 64, 64 x 512^2 x 64), issue #16's
# last fp32 batch target (2x CLBlast; the rule: 1.93x): step 7's 128 x 128 tile under the
# 128-register cap with 8-value K slices (half the registers the next slice holds), and other
# warp shapes; three rounds, CLBlast in the same command.
source .gpu/setup.sh
P=$OUT/probe251.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:100], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --format json -q "$@" 2>>$OUT/probe251.err | show "$tag"; }
V=("warp_tiled:READT=1,CLAMP=1,MAXNREG=128,PREFETCH=1,BK=8,WM=64,WN=32"
   "warp_tiled:READT=1,CLAMP=1,PREFETCH=1,BK=8,WM=64,WN=32"
   "warp_tiled:READT=1,CLAMP=1,MAXNREG=128,PREFETCH=1,BK=8,WM=128,WN=16"
   "warp_tiled:READT=1,CLAMP=1,MAXNREG=128,PREFETCH=1,BK=8,WM=32,WN=64"
   "warp_tiled:READT=1,CLAMP=1,MAXNREG=128,PREFETCH=1,BK=16,WM=32,WN=64"
   "warp_tiled:READT=1,CLAMP=1,MAXNREG=128,PREFETCH=1,BK=16,WM=128,WN=16"
   "warp_tiled:READT=1,CLAMP=1,MAXNREG=128,PREFETCH=0,BK=16,WM=64,WN=32")
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2 3; do
  for sz in 128x128x64:512 512x512x64:64; do
    args=(); for v in "${V[@]}"; do args+=(--algo "$v"); done
    run "r$r NT ${sz%:*} b${sz#*:}" --trans NT --batch ${sz#*:} --size ${sz%:*} --algo auto "${args[@]}"
  done
done
} > $P 2>&1
cat $P
