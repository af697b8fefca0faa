#!/usr/bin/env bash
# Probe 221 (an H200; after build-gpu is built): probe220 on the H200: TF32 N T at 16 < M <= 64 with a wide N.  The M <= 32 and
# M <= 64 rules (64-row blocks of the weight, rounding warpgroup, split by split_per_cu) have no
# wide form, where the 16-bit ones gained 4-9% from 128-row blocks (probe210).  Twice, cuBLAS.
source .gpu/setup.sh
P=$OUT/probe221.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    n=(r.get("note") or r.get("message") or ""); i=n.find("SPLITK")
    print(sys.argv[1], r["algorithm"][:80], r["status"], r.get("ms_median"), r.get("ms_min"), "|", n[i:i+9] if i>=0 else "", flush=True)' "$1" || echo "$1: no JSON"; }
F=SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for s in 48x28672x4096 64x11008x4096 64x6144x4096 64x4096x4096; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --size $s --algo tensor_core --algo wgmma_tma:BM=128,BN=64,WGN=64,STAGES=6,$F --algo wgmma_tma:BM=128,BN=64,WGN=64,STAGES=6,$F,SPLITK=2 2>>$OUT/probe221.err | show "r$rep tf32 $s"
  done
  for s in 32x28672x4096 32x11008x4096 32x6144x4096 24x4096x4096; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --size $s --algo tensor_core --algo wgmma_tma:BM=128,BN=32,WGN=32,STAGES=8,$F --algo wgmma_tma:BM=128,BN=32,WGN=32,STAGES=8,$F,SPLITK=2 2>>$OUT/probe221.err | show "r$rep tf32 $s"
  done
done
python3 bench/cublas.py tf32:48x28672x4096:NT tf32:64x11008x4096:NT tf32:64x6144x4096:NT tf32:64x4096x4096:NT tf32:32x28672x4096:NT tf32:32x11008x4096:NT tf32:32x6144x4096:NT tf32:24x4096x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
