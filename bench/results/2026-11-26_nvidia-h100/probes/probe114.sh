#!/usr/bin/env bash
# Probe 114: 16-bit attention batches with kept maps (HEAD): probe102's forms again (the rule,
# two groups per SM, 64-row tiles, non-persistent), since publishing no longer costs each
# group; bmm in the same command.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe114.txt
run() { local sz=$1 tr=$2 b=$3 d=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 150 build-gpu/clgemm --device nvidia --trans $tr --size $sz --batch $b --iters 200 --format json --dtype $d --out $d --no-baseline "${a[@]}" 2>>$OUT/probe114.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$sz $tr $b $d" || echo "$sz $tr $b : no JSON"; }
W=wgmma_tma:BN=128,WGN=128
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for round in 1 2; do
for job in "128x128x64 512" "512x512x64 64"; do set -- $job
 for d in f16 bf16; do
  run $1 NN $2 $d tensor_core $W,STAGES=2,PERSIST=2,TSTORE=1 wgmma_tma:BM=64,BN=128,WGN=128,STAGES=2,PERSIST=2,TSTORE=1 \
    wgmma_tma:BM=64,BN=128,WGN=128,STAGES=2,PERSIST=3,TSTORE=1 wgmma_tma:BM=64,BN=128,WGN=128,STAGES=2,TSTORE=1,GM=1 \
    $W,STAGES=2,TSTORE=1,GM=1 wgmma_tma:BM=64,BN=64,WGN=64,STAGES=2,PERSIST=4,TSTORE=1 $W,STAGES=3,PERSIST=1,TSTORE=1
 done; done; done
python3 bench/cublas.py f16:128x128x64:b512:r200 bf16:128x128x64:b512:r200 f16:512x512x64:b64:r200 bf16:512x512x64:b64:r200 2>&1 >/dev/null | grep '^cublas'
} > $P 2>&1
tail -3 $P
