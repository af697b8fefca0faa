#!/usr/bin/env bash
# Probe 140: fp32 auto batches with B stored N x K (N T; issue #16 asks >= 2x CLBlast, the rule
# gives 1.87-1.94x): step 7's tile, warp tile, K slice and pipeline over a wider range than
# probe107 (64-row and 64-column blocks, 4 x 4 / 4 x 8 / 8 x 4 results per work-item), CLBlast
# in the same command, two interleaved rounds; then the 16-bit batches (83-96% of bmm) with K
# slices of 32, two slots and 64-wide tiles beside the rule, cuBLAS bmm after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe140.txt
run() { local tag=$1 sz=$2 tr=$3 b=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 300 build-gpu/clgemm --device nvidia --trans $tr --size $sz --batch $b --iters 100 --format json -q "${a[@]}" $XTRA 2>>$OUT/probe140.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gflops"), flush=True)' "$tag $sz $tr $b" || echo "$tag $sz $tr $b : no JSON"; }
W=warp_tiled:READT=1
V="$W,PREFETCH=0,BK=16,WM=64,WN=32
$W,PREFETCH=1,BK=8
$W,PREFETCH=1,BK=8,WM=64,WN=32
$W,PREFETCH=0,BK=8,WM=64,WN=32
$W,PREFETCH=0,BK=16,WM=32,WN=64
$W,PREFETCH=0,BK=16,WM=64,WN=32,APAD=8
$W,PREFETCH=0,BK=16,WM=64,WN=32,APAD=0
$W,BM=64,BN=128,TM=4,TN=8,WM=64,WN=16,BK=16,PREFETCH=0
$W,BM=64,BN=128,TM=4,TN=8,WM=64,WN=16,BK=16,PREFETCH=1
$W,BM=128,BN=64,TM=8,TN=4,WM=64,WN=16,BK=16,PREFETCH=0
$W,BM=128,BN=64,TM=8,TN=4,WM=64,WN=16,BK=16,PREFETCH=1
$W,BM=64,BN=64,TM=4,TN=4,WM=32,WN=16,BK=16,PREFETCH=0
$W,BM=64,BN=64,TM=4,TN=4,WM=32,WN=16,BK=16,PREFETCH=1
$W,BM=128,BN=128,TM=4,TN=8,WM=64,WN=16,BK=16,PREFETCH=0"
{
cat .gpu/commit; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in r1 r2; do
  for job in "128x128x64 512" "512x512x64 64"; do set -- $job
    run $round $1 NT $2 auto $V
    run $round $1 NN $2 auto
  done
done
# 16-bit batches, C in the data's type as the layouts preset runs them.
T=wgmma_tma:BN=128,WGN=128,PERSIST=1,TSTORE=1
for round in r1 r2; do
  for job in "128x128x64 512" "512x512x64 64"; do set -- $job
    for d in bf16 f16; do
      XTRA="--dtype $d --out $d --no-baseline" run $round $1 NN $2 tensor_core $T,STAGES=4 $T,STAGES=3 $T,STAGES=2 \
        $T,BK=32,STAGES=4 $T,BK=32,STAGES=6 $T,BK=32,STAGES=8 wgmma_tma:BN=64,WGN=64,STAGES=4,PERSIST=1,TSTORE=1 \
        wgmma_tma:BN=128,WGN=64,STAGES=4,PERSIST=1,TSTORE=1 $T,STAGES=4,GM=1 $T,STAGES=8
    done
  done
done
python3 bench/cublas.py bf16:128x128x64:NN:b512 f16:128x128x64:NN:b512 bf16:512x512x64:NN:b64 f16:512x512x64:NN:b64 fp32:128x128x64:NT:b512 fp32:512x512x64:NT:b64 fp32:128x128x64:NN:b512 fp32:512x512x64:NN:b64 2>&1 >/dev/null | grep cublas:
} > $P 2>&1
tail -3 $P
