#!/usr/bin/env bash
# Probe 92: fp32 at 16 < M <= 64 (shapes no Llama row has; probe91: 64x4096x4096 NT ran 0.124 ms
# by auto's M <= 128 rule, 0.085 swapped with a 128 x 64 tile).  auto against step 7 swapped
# (NT: C^T = W X^T, the weight read as the plain kernel's A) with 128 x 64 / 64 x 64 tiles, and
# unswapped 64-row tiles for NN, each split 2-8 ways; cuBLAS fp32 in the same command.
source .gpu/setup.sh
P=$OUT/probe92.txt
run() { local dt=$1 sz=$2 tr=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe92.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $dt $sz $tr || echo "$dt $sz $tr : no JSON"; }
S=warp_tiled:SWAP=1,READT=0
T2=BM=64,BN=64,BK=16,TM=8,TN=4,WM=64,WN=16
T3=BM=128,BN=64,BK=16,TM=8,TN=4,WM=128,WN=8
T5=BM=128,BN=64,BK=8,TM=8,TN=8,WM=64,WN=32
T1=BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16
T4=BM=64,BN=128,BK=8,TM=8,TN=8,WM=64,WN=32
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sz in 64x4096x4096 64x28672x4096 64x4096x14336 48x4096x4096 32x4096x4096 32x6144x4096 17x4096x4096 24x5120x1000 64x3000x777; do
  a=(auto)
  for t in $T2 $T3 $T5; do for s in 1 2 4 8; do a+=($S,$t,SPLITK=$s); done; done
  run f32 $sz NT "${a[@]}" auto
  a=(auto)
  for t in $T1 $T4; do for s in 1 2 4 8; do a+=(warp_tiled:$t,SPLITK=$s); done; done
  run f32 $sz NN "${a[@]}" auto
done
python3 bench/cublas.py fp32:64x4096x4096:NT fp32:64x28672x4096:NT fp32:64x4096x14336:NT fp32:48x4096x4096:NT fp32:32x4096x4096:NT fp32:32x6144x4096:NT fp32:17x4096x4096:NT fp32:24x5120x1000:NT fp32:64x3000x777:NT fp32:64x4096x4096 fp32:32x4096x4096 fp32:17x4096x4096 2>&1 | grep "^cublas"
} > $P 2>&1
tail -3 $P
