#!/usr/bin/env bash
# Probe 95: tf32x3 at small M with the weight split in registers (e93ccaa: SPLIT=1 PACKA=3,
# swapped so that the weight is the kernel's A; only X is packed, hi and lo), against the
# H100's rule (step 7, READT=1), the H200's wgmma form (both operands packed, PACKA=1) and
# cuBLAS fp32; NT (X W^T).  Then TF32 at the same shapes for scale.
source .gpu/setup.sh
P=$OUT/probe95.txt
run() { local sz=$1 tr=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe95.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("error"), flush=True)' $sz $tr || echo "$sz $tr : no JSON"; }
W=wgmma_tma:SWAP=1,SPLIT=1,PACKA=3
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sz in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336 64x4096x4096; do
  run $sz NT tensor_core_tf32x3 wgmma_tma:BN=128,WGN=128,STAGES=3,SPLIT=1,PROMOTE=2,SPLITK=4 \
    $W,BM=128,BN=128,WGN=128,STAGES=4 $W,BM=128,BN=128,WGN=128,STAGES=4,SPLITK=2 $W,BM=128,BN=128,WGN=128,STAGES=4,SPLITK=3 $W,BM=128,BN=128,WGN=128,STAGES=4,SPLITK=4 \
    $W,BM=64,BN=128,WGN=128,STAGES=5,SPLITK=2 $W,BM=64,BN=128,WGN=128,STAGES=5,SPLITK=4 $W,BM=64,BN=128,WGN=128,STAGES=5 tensor_core_tf32x3
done
for sz in 16x4096x4096 16x4096x14336 16x28672x4096; do
  run $sz NT tensor_core_tf32x3 $W,BM=128,BN=16,WGN=16,STAGES=8,SPLITK=2 $W,BM=128,BN=16,WGN=16,STAGES=8,SPLITK=4 $W,BM=64,BN=16,WGN=16,STAGES=8,SPLITK=2 $W,BM=64,BN=16,WGN=16,STAGES=8 tensor_core_tf32x3
done
run 4096 NT tensor_core_tf32x3 $W,BM=128,BN=128,WGN=128,STAGES=4 $W,BM=128,BN=256,WGN=256,STAGES=3
python3 bench/cublas.py fp32:128x4096x4096:NT fp32:128x6144x4096:NT fp32:128x28672x4096:NT fp32:128x4096x14336:NT fp32:64x4096x4096:NT fp32:16x4096x4096:NT fp32:16x4096x14336:NT fp32:16x28672x4096:NT fp32:4096:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
