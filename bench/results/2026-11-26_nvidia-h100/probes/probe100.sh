#!/usr/bin/env bash
# Probe 100: (1) fp32 auto at 16 < M <= 64 with B stored N x K: the rule (step 7 swapped, X
# packed, 128 x 64 tiles) against unswapped 64-row tiles reading W^T in place (READT=1), split
# as the NN rule splits; (2) tensor_core_tf32x3 at M = 16 with B stored K x N (step 11 by the
# rule) against the wgmma form that splits the weight in registers (read M-major in place).
source .gpu/setup.sh
P=$OUT/probe100.txt
run() { local sz=$1 tr=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe100.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), flush=True)' $sz $tr || echo "$sz $tr : no JSON"; }
R=warp_tiled:READT=1,BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16
X=wgmma_tma:SWAP=1,SPLIT=1,PACKA=3,BM=64,BN=16,WGN=16,STAGES=8
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sz in 64x4096x4096 32x6144x4096 64x4096x14336 64x28672x4096 48x5120x1000; do
  run $sz NT auto $R,SPLITK=2 $R,SPLITK=4 $R,SPLITK=8 auto
done
for sz in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096 8x3000x1000; do
  run $sz NN tensor_core_tf32x3 $X $X,SPLITK=2 $X,SPLITK=4 tensor_core_tf32x3
done
python3 bench/cublas.py fp32:16x4096x4096 fp32:16x6144x4096 fp32:16x4096x14336 fp32:16x28672x4096 fp32:48x5120x1000:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
