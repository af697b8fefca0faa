#!/usr/bin/env bash
# Probe 89: 16-bit and TF32 batches with two persistent groups per SM (PERSIST=2, rings that
# fit twice), possible since 905159d fixed the map-slot race, against the batch rules
# (tensor_core) and cuBLAS bmm in the same command.
source .gpu/setup.sh
P=$OUT/probe89.txt
run() { local dt=$1 sz=$2 b=$3 tr=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 150 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans $tr --size $sz --batch $b --iters 100 --format json "${a[@]}" 2>>$OUT/probe89.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $dt $sz $b $tr || echo "$dt $sz $b $tr : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for bs in "512 128x128x64" "64 512x512x64"; do set -- $bs
  for dt in bf16 f16; do
    run $dt $2 $1 NN tensor_core "wgmma_tma:BN=128,WGN=128,STAGES=3,PERSIST=2,TSTORE=1" "wgmma_tma:BN=128,WGN=128,STAGES=2,PERSIST=2,TSTORE=1" "wgmma_tma:BN=128,WGN=128,STAGES=2,PERSIST=3,TSTORE=1" "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=3,PERSIST=2,TSTORE=1"
  done
  run f32 $2 $1 NT tensor_core "wgmma_tma:BN=128,WGN=128,STAGES=2,PACKA=3,PACKB=2,PERSIST=2" "wgmma_tma:BN=128,WGN=128,STAGES=3,PACKA=3,PACKB=2,PERSIST=2"
done
python3 bench/cublas.py bf16:128x128x64:b512 f16:128x128x64:b512 tf32:128x128x64:NT:b512 bf16:512x512x64:b64 f16:512x512x64:b64 tf32:512x512x64:NT:b64 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
