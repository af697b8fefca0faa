#!/usr/bin/env bash
# Probe 90: M = 128 and M = 16 at the Llama widths, NT (X W^T), against the rules and cuBLAS.
#  fp32: step 7 swapped (C^T = W X^T: the weight is the kernel's plain A, X packed small), no
#        in-place B^T read (READT=0), split 2..8, against auto's READT=1 rule.
#  bf16/f16: step 10 with 64 x 64 tiles (128 groups at N = 4096 without a split) and 2-way
#        splits, against the rules; bf16 M = 16 also step 11 with A in local memory.
#  TF32 M = 128: 64-row tiles split 2 against the rule.
source .gpu/setup.sh
P=$OUT/probe90.txt
run() { local dt=$1 sz=$2 tr=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt) && o+=(--dtype $dt)
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline "${o[@]}" --trans $tr --size $sz --iters 100 --format json "${a[@]}" 2>>$OUT/probe90.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $dt $sz $tr || echo "$dt $sz $tr : no JSON"; }
W=warp_tiled:SWAP=1,READT=0
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for nk in 4096x4096 6144x4096 28672x4096 4096x14336; do
  run f32 128x$nk NT auto warp_tiled:READT=1,SPLITK=4 $W $W,SPLITK=2 $W,SPLITK=3 $W,SPLITK=4 $W,SPLITK=6 $W,SPLITK=8 auto
done
run f32 4096x4096x4096 NT auto $W
for dt in bf16 f16; do
  for nk in 4096x4096 6144x4096; do
    run $dt 128x$nk NT tensor_core wgmma_tma:BM=64,BN=64,WGN=64,STAGES=8,SWAP=1,INFLIGHT=1 wgmma_tma:BM=64,BN=64,WGN=64,STAGES=12,SWAP=1,INFLIGHT=1 wgmma_tma:BM=64,BN=64,WGN=64,STAGES=8,SWAP=1 wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1,SPLITK=2 tensor_core
    run $dt 16x$nk NT tensor_core wgmma_tma:BM=64,BN=16,WGN=16,STAGES=24,SWAP=1,INFLIGHT=1 wgmma_tma:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=1,SPLITK=2 skinny:WG=256,KT=8,RN=2,UNROLL=2,AL=512,BM=16,SPLITK=2 skinny:WG=256,KT=8,RN=2,UNROLL=2,AL=512,BM=16,SPLITK=4 skinny:WG=256,KT=16,RN=2,UNROLL=2,AL=512,BM=16,SPLITK=2 tensor_core
  done
done
for nk in 4096x4096 6144x4096; do
  run f32 128x$nk NT tensor_core wgmma_tma:BM=64,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=2 wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1 wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=4 tensor_core
done
python3 bench/cublas.py fp32:128x4096x4096:NT fp32:128x6144x4096:NT fp32:128x28672x4096:NT fp32:128x4096x14336:NT fp32:4096:NT bf16:128x4096x4096:NT bf16:128x6144x4096:NT f16:128x4096x4096:NT f16:128x6144x4096:NT bf16:16x4096x4096:NT bf16:16x6144x4096:NT f16:16x4096x4096:NT f16:16x6144x4096:NT tf32:128x4096x4096:NT tf32:128x6144x4096:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -3 $P
