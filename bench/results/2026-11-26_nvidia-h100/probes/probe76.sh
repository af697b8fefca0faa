#!/usr/bin/env bash
# Probe 76: the floor of a call, ours against cuBLAS, timed alike (the smallest problems: a
# lesson kernel, step 8, step 10, step 11 and cuBLAS in one command); and fp32 auto's N T
# batches against step 7 forms that read B^T in place.
source .gpu/setup.sh
P=$OUT/probe76.txt
run() { local tag=$1 dt=$2 sz=$3 b=$4 tr=$5 base=$6; shift 6; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 150 build-gpu/clgemm --device nvidia $base --dtype $dt "${o[@]}" --trans $tr --size $sz --batch $b --iters 200 --format json "${a[@]}" 2>>$OUT/probe76.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("params"), flush=True)' $tag $dt $sz $b $tr; }
{
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2; do
  run floor f32 16 1 NN "" naive coalescing warp_tiled mma wgmma_tma skinny
  run floor bf16 64 1 NT --no-baseline mma wgmma_tma skinny "wgmma_tma:BM=64,BN=64,WGN=64,STAGES=2"
  run floor bf16 1x64x64 1 NT --no-baseline skinny tensor_core
done
python3 bench/cublas.py fp32:16 fp32:16:r200 bf16:64:NT:r200 bf16:1x64x64:NT:r200 tf32:16:r200 2>&1 | grep "^cublas"
for b in "64 512x512x64" "512 128x128x64"; do set -- $b
  run batchNT f32 $2 $1 NT "" auto "warp_tiled:READT=1" "warp_tiled:BK=16,READT=1,SWAP=1" "block_tiled_vectorized" "warp_tiled:BK=16,READT=0"
done
} > $P 2>&1
tail -1 $P
