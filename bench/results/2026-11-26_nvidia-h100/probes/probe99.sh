#!/usr/bin/env bash
# Probe 99 (H200): tf32x3 at small M with the weight split in registers (SPLIT=1 PACKA=3,
# swapped) against the H200's rules (M <= 128: wgmma with both operands packed; M <= 16:
# step 11), NT, with cuBLAS fp32.
source .gpu/setup.sh
P=$OUT/probe99.txt
run() { local sz=$1 tr=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe99.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), flush=True)' $sz $tr || echo "$sz $tr : no JSON"; }
W=wgmma_tma:SWAP=1,SPLIT=1,PACKA=3
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sz in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336 64x4096x4096; do
  run $sz NT tensor_core_tf32x3 $W,BM=128,BN=128,WGN=128,STAGES=4 $W,BM=128,BN=128,WGN=128,STAGES=4,SPLITK=2 $W,BM=128,BN=128,WGN=128,STAGES=4,SPLITK=4
done
for sz in 16x4096x4096 16x4096x14336 16x28672x4096 16x6144x4096; do
  run $sz NT tensor_core_tf32x3 $W,BM=64,BN=16,WGN=16,STAGES=8 $W,BM=64,BN=16,WGN=16,STAGES=8,SPLITK=2
done
python3 bench/cublas.py fp32:128x4096x4096:NT fp32:128x6144x4096:NT fp32:128x28672x4096:NT fp32:128x4096x14336:NT fp32:64x4096x4096:NT fp32:16x4096x4096:NT fp32:16x4096x14336:NT fp32:16x28672x4096:NT fp32:16x6144x4096:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
