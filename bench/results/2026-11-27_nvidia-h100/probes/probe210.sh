#!/usr/bin/env bash
# Probe 210 (after build-gpu is built): A. TF32 N T at M = 128, the rule (64-row tile, 8 slots,
# one group per SM, split where its blocks are fewer than 96) against 4-slot rings (two groups
# per SM) split 2-4: 128x6144x4096 runs 96 blocks unsplit and was the worst TF32 shape of
# llama-7 (0.81).  B. 16-bit at 16 < M <= 64 with a wide N: the M <= 32 and M <= 64 rules'
# 64-row tiles against 128-row ones and 2-groups-per-SM rings (probe208 did M <= 128).
source .gpu/setup.sh
P=$OUT/probe210.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:90], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:90], flush=True)' "$1" || echo "$1: no JSON"; }
T=BN=128,WGN=128,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for s in 128x6144x4096 128x4096x4096 128x4096x14336 128x28672x4096; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --size $s --algo tensor_core --algo wgmma_tma:BM=64,$T,STAGES=8,SPLITK=2 --algo wgmma_tma:BM=64,$T,STAGES=4,SPLITK=2 --algo wgmma_tma:BM=64,$T,STAGES=4,SPLITK=3 --algo wgmma_tma:BM=64,$T,STAGES=4,SPLITK=4 --algo wgmma_tma:BM=64,$T,STAGES=4 2>>$OUT/probe210.err | show "A r$rep tf32 $s"
  done
done
W=INFLIGHT=1,GM=32,SWAP=1
for s in 64x28672x4096 48x28672x4096 64x11008x4096 64x6144x4096; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype bf16 --out bf16 --size $s --algo tensor_core --algo wgmma_tma:BM=128,BN=64,WGN=64,STAGES=8,$W --algo wgmma_tma:BM=64,BN=64,WGN=64,STAGES=4,$W --algo wgmma_tma:BM=128,BN=64,WGN=64,STAGES=6,$W 2>>$OUT/probe210.err | show "B bf16 $s"
done
for s in 32x28672x4096 24x28672x4096 32x11008x4096 32x6144x4096; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype bf16 --out bf16 --size $s --algo tensor_core --algo wgmma_tma:BM=128,BN=32,WGN=32,STAGES=10,$W --algo wgmma_tma:BM=64,BN=32,WGN=32,STAGES=6,$W --algo wgmma_tma:BM=128,BN=32,WGN=32,STAGES=6,$W 2>>$OUT/probe210.err | show "B bf16 $s"
done
python3 bench/cublas.py tf32:128x6144x4096:NT tf32:128x4096x4096:NT tf32:128x4096x14336:NT tf32:128x28672x4096:NT bf16:64x28672x4096:NT bf16:48x28672x4096:NT bf16:64x11008x4096:NT bf16:64x6144x4096:NT bf16:32x28672x4096:NT bf16:24x28672x4096:NT bf16:32x11008x4096:NT bf16:32x6144x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
