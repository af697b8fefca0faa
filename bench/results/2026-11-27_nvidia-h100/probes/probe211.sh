#!/usr/bin/env bash
# Probe 211 (after build-gpu is built): A. TF32 N T at M = 16: the rule (BM=128, 11 slots, one
# group per SM) splits 16x6144x4096's 48 blocks in 2 (96 groups: 3 would make a second round),
# and that shape stayed at 0.87 of cuBLAS; 5-slot rings let two groups share an SM, so 3 or 4
# slices fit one round.  B. shapes no rule was measured at (M = 200-512), with cuBLAS, and the
# 16-bit wide forms (c.f. probe210) in N N.
source .gpu/setup.sh
P=$OUT/probe211.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:90], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:100], flush=True)' "$1" || echo "$1: no JSON"; }
T=BN=16,WGN=16,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for s in 16x6144x4096 16x4096x4096 8x6144x4096 16x4096x14336; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --size $s --algo tensor_core --algo wgmma_tma:BM=128,$T,STAGES=11,SPLITK=3 --algo wgmma_tma:BM=128,$T,STAGES=5,SPLITK=3 --algo wgmma_tma:BM=128,$T,STAGES=5,SPLITK=4 --algo wgmma_tma:BM=64,$T,STAGES=5,SPLITK=2 --algo wgmma_tma:BM=64,$T,STAGES=8,SPLITK=2 2>>$OUT/probe211.err | show "A r$rep tf32 $s"
  done
done
for s in 200x4096x4096 256x4096x4096 384x4096x4096 512x4096x4096 256x28672x4096 512x11008x4096 300x5120x5120; do
  for d in bf16 f32; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --dtype $d --size $s --algo tensor_core 2>>$OUT/probe211.err | show "B $d $s"
  done
done
for s in 128x28672x4096 48x28672x4096 32x11008x4096 128x6144x4096; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NN --dtype bf16 --out bf16 --size $s --algo tensor_core --algo wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,INFLIGHT=1,GM=32,SWAP=1 2>>$OUT/probe211.err | show "C NN bf16 $s"
done
python3 bench/cublas.py tf32:16x6144x4096:NT tf32:16x4096x4096:NT tf32:8x6144x4096:NT tf32:16x4096x14336:NT bf16:200x4096x4096:NT tf32:200x4096x4096:NT bf16:256x4096x4096:NT tf32:256x4096x4096:NT bf16:384x4096x4096:NT tf32:384x4096x4096:NT bf16:512x4096x4096:NT tf32:512x4096x4096:NT bf16:256x28672x4096:NT tf32:256x28672x4096:NT bf16:512x11008x4096:NT tf32:512x11008x4096:NT bf16:300x5120x5120:NT tf32:300x5120x5120:NT bf16:128x28672x4096:NN bf16:48x28672x4096:NN bf16:32x11008x4096:NN bf16:128x6144x4096:NN 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
