#!/usr/bin/env bash
# Probe 249: fp32 strided batches N T (and T N, N N) with smaller groups of step 7 under the
# 128-register cap (MAXNREG=128), so that 4 (128 threads) or 8 (64 threads) groups share an
# SM where the rule's 256-thread group fits 2: 128x64 and 64x128 blocks of 8x8 per work-item,
# 64x64 blocks; the rule beside, CLBlast in the same command.  Two rounds.
source .gpu/setup.sh
P=$OUT/probe249.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:100], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --format json -q "$@" 2>>$OUT/probe249.err | show "$tag"; }
R="BK=16,READT=1,PREFETCH=1,CLAMP=1,MAXNREG=128"
V=("warp_tiled:$R,BM=128,BN=64,TM=8,TN=8,WM=64,WN=32"
   "warp_tiled:$R,BM=64,BN=128,TM=8,TN=8,WM=32,WN=64"
   "warp_tiled:$R,BM=64,BN=64,TM=8,TN=8,WM=32,WN=64"
   "warp_tiled:$R,BM=64,BN=64,TM=8,TN=8,WM=64,WN=32"
   "warp_tiled:BK=16,READT=1,PREFETCH=0,CLAMP=1,MAXNREG=128,BM=128,BN=64,TM=8,TN=8,WM=64,WN=32"
   "warp_tiled:BK=8,READT=1,PREFETCH=1,CLAMP=1,MAXNREG=128,BM=128,BN=64,TM=8,TN=8,WM=64,WN=32")
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2; do
  for tr in NT TN NN; do
    for sz in 128x128x64:512 512x512x64:64; do
      args=(); for v in "${V[@]}"; do args+=(--algo "$v"); done
      run "r$r $tr ${sz%:*} b${sz#*:}" --trans $tr --batch ${sz#*:} --size ${sz%:*} --algo auto "${args[@]}"
    done
  done
done
} > $P 2>&1
cat $P
