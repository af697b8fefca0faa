#!/usr/bin/env bash
# Probe 212 (after build-gpu is built): 128 < M <= 512, which probe211 found at 0.60-0.82 of
# cuBLAS (bf16 256x4096x4096 0.0289 ms against 0.0214; TF32 384x4096x4096 0.0837 against
# 0.0502).  The M <= 512 rules against swapped tiles (the weight on the 64- or 128-row side),
# splits and the 4096^3 form, twice, N T; cuBLAS beside.
source .gpu/setup.sh
P=$OUT/probe212.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:100], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:110], flush=True)' "$1" || echo "$1: no JSON"; }
H=INFLIGHT=1,GM=32
F=PACKA=3,PACKB=2,ROUNDER=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for s in 256x4096x4096 384x4096x4096 512x4096x4096 200x4096x4096 256x28672x4096 512x11008x4096 300x5120x5120; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --dtype bf16 --out bf16 --size $s --algo tensor_core \
      --algo wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,$H,SWAP=1 --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,$H,SWAP=1 \
      --algo wgmma_tma:BM=128,BN=256,WGN=256,STAGES=4,$H,SWAP=1 --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=4,INFLIGHT=0,GM=32,SPLITK=2 \
      --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,$H 2>>$OUT/probe212.err | show "r$rep bf16 $s"
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --size $s --algo tensor_core \
      --algo wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,$F --algo wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,$F,SPLITK=2 \
      --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,$F --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,$F,SPLITK=2 \
      --algo wgmma_tma:PACKA=3,SETMAXNREG=1,SWAP=1 2>>$OUT/probe212.err | show "r$rep tf32 $s"
  done
done
} > $P 2>&1
tail -3 $P
