#!/usr/bin/env bash
# Probe 226: fp32 N T strided batches (512 x 128x128x64, 64 x 512x512x64): step 7's tiles
# beside the batch rule's, with CLBlast's strided batch in the same command (issue #16 asks
# for 2x CLBlast).
source .gpu/setup.sh
P=$OUT/probe226.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:90], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("vs_clblast"), (r.get("note") or r.get("message") or "")[:100], flush=True)' "$1" || echo "$1: no JSON"; }
R="BK=16,READT=1,PREFETCH=1"
ALGOS=(auto
 "warp_tiled:$R,WM=64,WN=32,CLAMP=0,MAXNREG=128"
 "warp_tiled:$R,WM=64,WN=32,CLAMP=1,MAXNREG=168"
 "warp_tiled:BK=16,READT=1,PREFETCH=0,WM=64,WN=32,CLAMP=1,MAXNREG=128"
 "warp_tiled:$R,WM=128,WN=16,CLAMP=0,MAXNREG=128"
 "warp_tiled:BK=8,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=0"
 "warp_tiled:$R,BM=64,BN=128,TM=4,TN=8,WM=32,WN=32,CLAMP=0"
 "warp_tiled:$R,BM=128,BN=64,TM=8,TN=4,WM=64,WN=16,CLAMP=0"
 "warp_tiled:$R,BM=64,BN=64,TM=4,TN=4,WM=32,WN=16,CLAMP=0"
 "warp_tiled:BK=32,READT=1,PREFETCH=1,BM=64,BN=64,TM=4,TN=4,WM=32,WN=16,CLAMP=0"
 "warp_tiled:$R,BM=64,BN=128,TM=8,TN=4,WM=64,WN=16,CLAMP=0"
)
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
for shape in "512 128x128x64" "64 512x512x64"; do
  set -- $shape
  args=(); for a in "${ALGOS[@]}"; do args+=(--algo "$a"); done
  build-gpu/clgemm --device nvidia --format json -q --iters 200 --trans NT --batch $1 --size $2 "${args[@]}" 2>>$OUT/probe226.err | show "rep$rep NT $1x$2"
done
done
} > $P 2>&1
cat $P
