#!/usr/bin/env bash
# Probe 24: fp32 and TF32 strided batches (the layouts preset's 64 x 512x512x64 and
# 512 x 128x128x64, NN): other tiles than auto's and tensor_core's, against both.
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe24.txt
run() { local tag=$1 sz=$2 b=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $C --device nvidia --size $sz --batch $b --iters 50 --format json "${a[@]}" 2>>$OUT/probe24.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("params"), flush=True)' $tag $sz $b; }
{
for rep in 1 2; do
for sb in "512x512x64 64" "128x128x64 512"; do
  set -- $sb
  run r$rep $1 $2 auto tensor_core "warp_tiled:BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16,CLAMP=1" \
    warp_tiled:BK=16 "warp_tiled:BM=128,BN=64,BK=16,TM=8,TN=4,WM=128,WN=8" \
    block_tiled_vectorized block_tiled "mma:BM=64,BN=64" "wgmma_tma:BN=128,WGN=128,STAGES=2" \
    "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=3"
done
done
} > $P 2>&1
cat $P
