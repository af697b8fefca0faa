#!/usr/bin/env bash
# Probe 91: fp32 M = 128, NT (X W^T), step 7 swapped (C^T = W X^T: the weight is the plain
# kernel's A, X packed small, READT=0) with smaller tiles than 128 x 128, so that more groups
# share an SM (probe90: one 128 x 128 group per SM runs at half the SM's rate), split 2-8
# ways; auto's rule (READT=1, split by rounds) and cuBLAS fp32 in the same command.
source .gpu/setup.sh
P=$OUT/probe91.txt
run() { local dt=$1 sz=$2 tr=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 100 --format json "${a[@]}" 2>>$OUT/probe91.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $dt $sz $tr || echo "$dt $sz $tr : no JSON"; }
S=warp_tiled:SWAP=1,READT=0
T1=BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16
T2=BM=64,BN=64,BK=16,TM=8,TN=4,WM=64,WN=16
T3=BM=128,BN=64,BK=16,TM=8,TN=4,WM=128,WN=8
T4=BM=64,BN=128,BK=8,TM=8,TN=8,WM=64,WN=32
T5=BM=128,BN=64,BK=8,TM=8,TN=8,WM=64,WN=32
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sz in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336 64x4096x4096 100x3000x1000; do
  a=(auto)
  for t in $T1 $T2 $T3 $T4 $T5; do for s in 1 2 4 8; do a+=($S,$t,SPLITK=$s); done; done
  run f32 $sz NT "${a[@]}" auto
done
python3 bench/cublas.py fp32:128x4096x4096:NT fp32:128x6144x4096:NT fp32:128x28672x4096:NT fp32:128x4096x14336:NT fp32:64x4096x4096:NT fp32:100x3000x1000:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -3 $P
