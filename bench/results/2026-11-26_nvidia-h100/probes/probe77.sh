#!/usr/bin/env bash
# Probe 77: the matrix units at mid sizes nobody tuned for (squares of 1000-3000), where the
# default tiles leave SMs idle: tensor_core against smaller tiles, and cuBLAS in the same command.
source .gpu/setup.sh
P=$OUT/probe77.txt
run() { local tag=$1 dt=$2 sz=$3 tr=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 150 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe77.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $tag $dt $sz $tr; }
{
nvidia-smi --query-gpu=name --format=csv,noheader
for sz in 1024 2048 1000x3000x777 3000; do for tr in NN NT; do
  run mid f32 $sz $tr tensor_core "wgmma_tma:BN=128,WGN=128" "wgmma_tma:BM=64,BN=128,WGN=128" "wgmma_tma:BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
done; done
for dt in bf16; do for sz in 1024 2048 3000; do
  run mid $dt $sz NT tensor_core "wgmma_tma:BN=128,WGN=128" "wgmma_tma:BM=64,BN=128,WGN=128"
done; done
python3 bench/cublas.py tf32:1024 tf32:1024:NT tf32:2048 tf32:2048:NT tf32:1000x3000x777 tf32:3000 bf16:1024:NT bf16:2048:NT bf16:3000:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -1 $P
