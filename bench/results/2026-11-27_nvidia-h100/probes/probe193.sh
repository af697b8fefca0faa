#!/usr/bin/env bash
# Probe 193: 16-bit strided batches (512 x 128x128x64 at 91% of bmm in layouts-2, 64 x
# 512x512x64 at 103-105%): the batch rule (step 10, 128 x 128, 4 stages, persistent, TMA
# stores) against fewer stages (two groups per SM), not persistent, plain stores, 64-row or
# 64-column tiles, two k-steps; bmm before and after ours.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe193.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), "|", (r.get("note") or "")[:80], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
W=wgmma_tma:BM=128,BN=128,WGN=128
a="--algo tensor_core"
for v in BK=64,STAGES=4,PERSIST=1,TSTORE=1 BK=64,STAGES=2,PERSIST=1,TSTORE=1 BK=64,STAGES=3,PERSIST=1,TSTORE=1 BK=64,STAGES=2,TSTORE=1 BK=64,STAGES=2 BK=64,STAGES=4,PERSIST=1 BK=32,STAGES=4,PERSIST=1,TSTORE=1; do a="$a --algo $W,$v"; done
a="$a --algo wgmma_tma:BM=64,BN=128,BK=64,WGN=128,STAGES=2,PERSIST=1,TSTORE=1 --algo wgmma_tma:BM=128,BN=64,BK=64,WGN=64,STAGES=4,PERSIST=1,TSTORE=1 --algo wgmma_tma:BM=64,BN=128,BK=64,WGN=128,STAGES=2,TSTORE=1"
for d in bf16 f16; do
for job in "512 128x128x64 NN" "512 128x128x64 NT" "64 512x512x64 NN"; do
  set -- $job
  python3 bench/cublas.py $d:$2:$3:b$1:r50 2>&1 | grep "cublas:"
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --dtype $d --out $d --batch $1 --trans $3 --size $2 $a 2>/dev/null | show "$d b$1 $2 $3"
  python3 bench/cublas.py $d:$2:$3:b$1:r50 2>&1 | grep "cublas:"
done
done
} > $P 2>&1
tail -3 $P
