#!/usr/bin/env bash
# Probe 80: (a) the batches after e69c735 (caller's parameters from its name) against cuBLAS
# bmm, and 1024^3 still taking the narrower tile; (b) TF32 at M = 4096, where the pre-pass
# costs: forms with no pass (rounder, consumers rounding, A in registers) against the default,
# the kernel alone and a truncating A; (c) tf32x3 at M = 128 on the matrix units (the rule runs
# warp_tiled); (d) TF32 mid squares with split K.
source .gpu/setup.sh
P=$OUT/probe80.txt
run() { local tag=$1 dt=$2 sz=$3 b=$4 tr=$5; shift 5; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  local bl=(--no-baseline); [ $tag = batch ] && [ $dt = f32 ] && bl=()
  timeout 150 build-gpu/clgemm --device nvidia "${bl[@]}" --dtype $dt "${o[@]}" --trans $tr --size $sz --batch $b --iters 50 --format json "${a[@]}" 2>>$OUT/probe80.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("vs_clblast"), r.get("params"), flush=True)' $tag $dt $sz $b $tr; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for tr in NN NT; do for bs in "64 512x512x64" "512 128x128x64"; do set -- $bs
  run batch f32 $2 $1 $tr auto tensor_core
  for dt in f16 bf16; do run batch $dt $2 $1 $tr tensor_core; done
done; done
run fill bf16 1024 1 NT tensor_core; run fill f32 1024 1 NN tensor_core
python3 bench/cublas.py fp32:512x512x64:b64 tf32:512x512x64:b64 f16:512x512x64:b64 bf16:512x512x64:b64 fp32:128x128x64:b512 tf32:128x128x64:b512 f16:128x128x64:b512 bf16:128x128x64:b512 fp32:512x512x64:NT:b64 tf32:512x512x64:NT:b64 f16:512x512x64:NT:b64 bf16:512x512x64:NT:b64 fp32:128x128x64:NT:b512 tf32:128x128x64:NT:b512 f16:128x128x64:NT:b512 bf16:128x128x64:NT:b512 2>&1 | grep "^cublas"
R="BM=128,BN=128,WGN=128,STAGES=5,PACKA=3,PACKB=2,ROUNDER=1"
for s in "4096x4096x4096 NT" "4096x4096x4096 NN" "4096x4096x14336 NT" "4096x28672x4096 NT"; do set -- $s
  run big f32 $1 1 $2 tensor_core "wgmma_tma:PACKA=0" "wgmma_tma:$R" "wgmma_tma:$R,SWAP=1" "wgmma_tma:BM=128,BN=192,WGN=192,STAGES=4,PACKA=3,PACKB=2,ROUNDER=1" "wgmma_tma:PACKA=2,PACKB=2" "wgmma_tma:BN=128,WGN=128,STAGES=6,PACKA=2,PACKB=2,ROUNDER=1"
  CLGEMM_TIME_LAST_KERNEL_ONLY=1 run bigkernel f32 $1 1 $2 tensor_core
done
X="wgmma_tma:BN=128,WGN=128,STAGES=3,SPLIT=1,PROMOTE=2"
for s in 128x4096x4096 128x4096x14336 128x28672x4096; do
  run x3 f32 $s 1 NT tensor_core_tf32x3 "$X" "$X,SPLITK=2" "$X,SPLITK=4" "$X,BM=64,SWAP=1" "$X,BM=64,SWAP=1,SPLITK=2"
done
for s in 1024 2048; do
  run mid f32 $s 1 NN tensor_core "wgmma_tma:BN=128,WGN=128,SPLITK=2" "wgmma_tma:BN=128,WGN=128,SPLITK=4" "wgmma_tma:BM=64,BN=128,WGN=128,SPLITK=2" "wgmma_tma:$R,SWAP=1,SPLITK=2" "wgmma_tma:$R,SWAP=1"
done
python3 bench/cublas.py tf32:4096x4096x4096:NT tf32:4096 tf32:4096x4096x14336:NT tf32:4096x28672x4096:NT fp32:128x4096x4096:NT fp32:128x4096x14336:NT fp32:128x28672x4096:NT tf32:1024 tf32:2048 2>&1 | grep "^cublas"
} > $P 2>&1
tail -1 $P
