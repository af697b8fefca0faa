#!/usr/bin/env bash
# Probe 215 (after build-gpu is built): A. TF32 N T at 128 < M <= 512 (0.60-0.77 of cuBLAS in
# probe211): X rounded by the pre-pass (PACKB=1) instead of the rounding warpgroup, with and
# without SETMAXNREG, and tiles as wide as 96 or 192 rows of X (384 = 4 x 96 = 2 x 192), twice.
# B. fp32 auto at the same shapes, with cuBLAS.
source .gpu/setup.sh
P=$OUT/probe215.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:100], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:110], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for s in 384x4096x4096 256x4096x4096 512x4096x4096 300x5120x5120 512x11008x4096; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --size $s --algo tensor_core \
      --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=1 \
      --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=1,SETMAXNREG=1 \
      --algo wgmma_tma:BM=128,BN=96,WGN=32,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1 \
      --algo wgmma_tma:BM=128,BN=192,WGN=64,STAGES=5,SWAP=1,PACKA=3,PACKB=1,SETMAXNREG=1 \
      --algo wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,PACKA=3,PACKB=1 2>>$OUT/probe215.err | show "A r$rep tf32 $s"
  done
done
for s in 256x4096x4096 384x4096x4096 512x4096x4096 300x5120x5120 512x11008x4096 256x28672x4096; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 30 --trans NT --size $s --algo auto 2>>$OUT/probe215.err | show "B fp32 $s"
done
python3 bench/cublas.py tf32:384x4096x4096:NT tf32:256x4096x4096:NT tf32:512x4096x4096:NT tf32:300x5120x5120:NT tf32:512x11008x4096:NT fp32:256x4096x4096:NT fp32:384x4096x4096:NT fp32:512x4096x4096:NT fp32:300x5120x5120:NT fp32:512x11008x4096:NT fp32:256x28672x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
