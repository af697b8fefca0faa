#!/usr/bin/env bash
# Probe 73: TF32 with A in registers read as stored (1e1bd80): calls in each transpose by the
# rules, and the batch forms that could run without any pre-pass (SWAP puts B of an N N call
# on the register side; PACKB=2 rounds the other operand in local memory).
source .gpu/setup.sh
P=$OUT/probe73.txt
run() { local tag=$1 dt=$2 sz=$3 b=$4 tr=$5; shift 5; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 120 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans $tr --size $sz --batch $b --iters 100 --format json "${a[@]}" 2>>$OUT/probe73.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' $tag $dt $sz $b $tr; }
P1="wgmma_tma:BN=128,WGN=128,STAGES=4,PACKA=3,PERSIST=1"
P3="wgmma_tma:BN=128,WGN=128,STAGES=4,PACKA=3,PACKB=2,PERSIST=1"
R128="wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
{
nvidia-smi --query-gpu=name --format=csv,noheader
for tr in NN NT TN TT; do run single f32 128x4096x4096 1 $tr tensor_core; done
run single f32 512x4096x4096 1 NN tensor_core "wgmma_tma:BM=128,BN=128,WGN=128,STAGES=5,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
run single f32 16x4096x4096 1 NN tensor_core "wgmma_tma:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=4"
run single f32 16x4096x4096 1 NT tensor_core
run single f32 4096 1 NT tensor_core "wgmma_tma:PACKA=3,PACKB=2,ROUNDER=1" "wgmma_tma:BN=128,WGN=128,STAGES=6,PACKA=3,PACKB=2,ROUNDER=1"
for tr in NN NT TN TT; do
  for bs in "512 128x128x64" "64 512x512x64"; do set -- $bs
    run batch f32 $2 $1 $tr tensor_core mma "$P1" "$P1,SWAP=1" "$P3" "$P3,SWAP=1"
  done
done
for tr in NN NT; do for bs in "512 128x128x64" "64 512x512x64"; do set -- $bs
  run batch bf16 $2 $1 $tr tensor_core; done; done
} > $P 2>&1
tail -1 $P
