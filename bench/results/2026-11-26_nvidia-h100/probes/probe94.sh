#!/usr/bin/env bash
# Probe 94: TF32 at M = 4096, what the rounding pre-pass costs and whether rounding A in
# registers (PACKA=3: A's raw box rounded on its way to the tensor core) with only B in the
# pre-pass (PACKB=1) beats rounding both in the pass, at tiles whose accumulators leave room
# for A's fragments (BN 128, 192); NT (X W^T) and NN; cuBLAS tf32 in the same command.
source .gpu/setup.sh
P=$OUT/probe94.txt
run() { local sz=$1 tr=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 30 --format json "${a[@]}" 2>>$OUT/probe94.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $sz $tr || echo "$sz $tr : no JSON"; }
W=wgmma_tma
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for tr in NT NN; do for sz in 4096 4096x4096x14336; do
  run $sz $tr tensor_core $W:PACKA=2,PACKB=2,ROUNDER=1 \
    $W:BN=192,WGN=64,STAGES=4,PACKA=3,PACKB=1 $W:BN=192,WGN=64,STAGES=3,PACKA=3,PACKB=1 \
    $W:BN=128,WGN=128,STAGES=6,PACKA=3,PACKB=1 $W:BN=256,WGN=256,STAGES=4,PACKA=3,PACKB=1 \
    $W:BN=192,WGN=64,STAGES=4,PACKA=1,PACKB=1 \
    $W:BN=192,WGN=64,STAGES=4,SWAP=1,PACKA=3,PACKB=1 $W:BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=1 tensor_core
done; done
python3 bench/cublas.py tf32:4096:NT tf32:4096x4096x14336:NT tf32:4096 tf32:4096x4096x14336 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
