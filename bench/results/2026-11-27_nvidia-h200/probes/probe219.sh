#!/usr/bin/env bash
# Probe 219 (an H200; after build-gpu is built): TF32 N T at M = 128, 0.71-0.73 of cuBLAS on the
# H200 (llama-3) with rules copied from the H100.  The rule (64-row tile split by split_per_cu,
# the 128-row wide form) against 64- and 128-row tiles split 1-4 written out, twice; cuBLAS.
source .gpu/setup.sh
P=$OUT/probe219.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    n=(r.get("note") or r.get("message") or ""); i=n.find("BM=")
    print(sys.argv[1], r["algorithm"][:80], r["status"], r.get("ms_median"), r.get("ms_min"), "|", n[i:i+12] if i>=0 else "", "SPLITK" + n.split("SPLITK")[1][:3] if "SPLITK" in n else "", flush=True)' "$1" || echo "$1: no JSON"; }
F=BN=128,WGN=128,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for s in 128x6144x4096 128x4096x4096 128x4096x14336 128x28672x4096; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --size $s --algo tensor_core \
      --algo wgmma_tma:BM=64,$F,STAGES=8,SPLITK=1 --algo wgmma_tma:BM=64,$F,STAGES=8,SPLITK=2 --algo wgmma_tma:BM=64,$F,STAGES=8,SPLITK=3 \
      --algo wgmma_tma:BM=128,$F,STAGES=6,SPLITK=1 --algo wgmma_tma:BM=128,$F,STAGES=6,SPLITK=2 --algo wgmma_tma:BM=128,$F,STAGES=6,SPLITK=3 \
      --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=1 2>>$OUT/probe219.err | show "r$rep tf32 $s"
  done
done
python3 bench/cublas.py tf32:128x6144x4096:NT tf32:128x4096x4096:NT tf32:128x4096x14336:NT tf32:128x28672x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
