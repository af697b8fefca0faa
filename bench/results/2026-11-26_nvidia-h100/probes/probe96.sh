#!/usr/bin/env bash
# Probe 96: (1) TF32 at M = 128 and M = 16 (NT) with the weight rounded in registers and X
# rounded by the pre-pass (PACKA=3,PACKB=1, the form probe95 found for tf32x3), against the
# rules (X rounded in local memory by a rounding warpgroup: PACKB=2,ROUNDER=1) and cuBLAS tf32.
# (2) tensor_core_tf32x3 by cec1fc0's rules in each layout at small M, with cuBLAS fp32.
source .gpu/setup.sh
P=$OUT/probe96.txt
run() { local sz=$1 tr=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe96.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $sz $tr || echo "$sz $tr : no JSON"; }
W=wgmma_tma:SWAP=1,PACKA=3,PACKB=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sz in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336; do
  run $sz NT tensor_core $W,BM=128,BN=128,WGN=128,STAGES=6 $W,BM=128,BN=128,WGN=128,STAGES=6,SPLITK=2 $W,BM=128,BN=128,WGN=128,STAGES=6,SPLITK=3 $W,BM=128,BN=128,WGN=128,STAGES=6,SPLITK=4 \
    $W,BM=64,BN=128,WGN=128,STAGES=8,SPLITK=2 $W,BM=64,BN=128,WGN=128,STAGES=8 tensor_core
done
for sz in 16x4096x4096 16x6144x4096 16x28672x4096 16x4096x14336; do
  run $sz NT tensor_core $W,BM=64,BN=16,WGN=16,STAGES=12 $W,BM=64,BN=16,WGN=16,STAGES=12,SPLITK=2 $W,BM=128,BN=16,WGN=16,STAGES=11,SPLITK=2 $W,BM=128,BN=16,WGN=16,STAGES=11,SPLITK=4 tensor_core
done
for tr in NN NT TN TT; do for sz in 128x4096x4096 64x4096x4096 100x3000x1000 32x6144x4096 16x4096x4096; do
  run $sz $tr tensor_core_tf32x3 auto
done; done
python3 bench/cublas.py tf32:128x4096x4096:NT tf32:128x6144x4096:NT tf32:128x28672x4096:NT tf32:128x4096x14336:NT tf32:16x4096x4096:NT tf32:16x6144x4096:NT tf32:16x28672x4096:NT tf32:16x4096x14336:NT fp32:128x4096x4096 fp32:64x4096x4096 fp32:100x3000x1000 fp32:32x6144x4096 fp32:16x4096x4096 fp32:128x4096x4096:TN 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
