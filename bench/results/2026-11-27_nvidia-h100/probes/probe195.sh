#!/usr/bin/env bash
# Probe 195: bf16 at 16 < M <= 128, where the rule runs 64 x 128 tiles (the weight x X,
# swapped): a first run (stderr in the JSON, lost) showed 100x4096x4096 at 0.0230 ms against
# 0.0180 for 128 rows (cuBLAS 0.0149 and 0.0168).  What the rows of X past M cost: M = 96, 100,
# 112, 128 with the rule, with an fp32 C, unstaged stores, 64-wide tiles; M = 16, 32, 64 with
# tiles as wide as M; cuBLAS beside.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe195.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gflops"), "|", (r.get("note") or r.get("message") or "")[-70:], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
R=wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,INFLIGHT=1,GM=32,SWAP=1
for M in 96 100 112 128; do
  a="--algo tensor_core --algo $R,STAGED=0 --algo wgmma_tma:BM=64,BN=64,WGN=64,STAGES=8,INFLIGHT=1,SWAP=1 --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=4,SWAP=1"
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype bf16 --out bf16 --size ${M}x4096x4096 $a 2>>$OUT/err.txt | show "bf16 ${M}x4096x4096"
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype bf16 --out f32 --size ${M}x4096x4096 --algo tensor_core 2>>$OUT/err.txt | show "bf16-outf32 ${M}x4096x4096"
done
for M in 16 32 64; do
  a="--algo tensor_core --algo $R --algo wgmma_tma:BM=64,BN=$M,WGN=$M,STAGES=8,INFLIGHT=1,SWAP=1 --algo wgmma_tma:BM=64,BN=$M,WGN=$M,STAGES=12,INFLIGHT=1,SWAP=1"
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype bf16 --out bf16 --size ${M}x4096x4096 $a 2>>$OUT/err.txt | show "bf16 ${M}x4096x4096"
done
python3 bench/cublas.py $(for M in 16 32 64 96 100 112 128; do echo bf16:${M}x4096x4096:NT:r100; done) 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
