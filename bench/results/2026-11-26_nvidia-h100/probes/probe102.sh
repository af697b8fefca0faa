#!/usr/bin/env bash
# Probe 102: attention-sized strided batches (issue #16: >= bmm in 16 bits, >= 2x CLBlast in
# fp32).  16-bit (f16 C): the rule (persistent 128x128, 4 slots, TMA stores) against two
# groups per SM (2 slots), 64-row tiles, and non-persistent forms.  fp32 auto N T: the rule
# (warp_tiled BK=16 READT=1) against packing B (READT=0), BK=8, 64-row tiles; CLBlast beside.
source .gpu/setup.sh
rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
P=$OUT/probe102.txt
run() { local sz=$1 tr=$2 b=$3 extra=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 150 build-gpu/clgemm --device nvidia --trans $tr --size $sz --batch $b --iters 100 --format json $extra "${a[@]}" 2>>$OUT/probe102.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("params"), flush=True)' $sz $tr $b || echo "$sz $tr $b : no JSON"; }
W=wgmma_tma:BN=128,WGN=128
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for d in f16 bf16; do
for job in "128x128x64 512" "512x512x64 64"; do set -- $job
 for tr in NN NT; do
  run $1 $tr $2 "--dtype $d --out $d --no-baseline" tensor_core \
    $W,STAGES=4,PERSIST=1,TSTORE=1 $W,STAGES=2,PERSIST=2,TSTORE=1 $W,STAGES=2,PERSIST=2,TSTORE=0 \
    wgmma_tma:BM=64,BN=128,WGN=128,STAGES=2,PERSIST=3,TSTORE=1 wgmma_tma:BM=64,BN=128,WGN=128,STAGES=2,PERSIST=2,TSTORE=1 \
    wgmma_tma:BM=64,BN=128,WGN=128,STAGES=2,TSTORE=1,GM=1 $W,STAGES=2,TSTORE=1,GM=1 \
    wgmma_tma:BM=128,BN=64,WGN=64,STAGES=2,PERSIST=2,TSTORE=1 tensor_core
 done; done; done
for job in "128x128x64 512" "512x512x64 64"; do set -- $job
 for tr in NT NN; do
  run $1 $tr $2 "" auto warp_tiled:BK=16,READT=0 warp_tiled:BK=8,READT=1 \
    warp_tiled:BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16,READT=1 warp_tiled:BM=128,BN=64,BK=16,TM=8,TN=4,WM=64,WN=16,READT=1 \
    warp_tiled:BK=16,READT=1,SWAP=1 auto
 done; done
python3 bench/cublas.py f16:128x128x64:b512:r100 f16:128x128x64:NT:b512:r100 f16:512x512x64:b64:r100 f16:512x512x64:NT:b64:r100 \
  bf16:128x128x64:b512:r100 bf16:128x128x64:NT:b512:r100 bf16:512x512x64:b64:r100 bf16:512x512x64:NT:b64:r100 \
  fp32:128x128x64:NT:b512:r100 fp32:512x512x64:NT:b64:r100 fp32:128x128x64:b512:r100 fp32:512x512x64:b64:r100 2>&1 >/dev/null | grep '^cublas'
} > $P 2>&1
tail -3 $P
