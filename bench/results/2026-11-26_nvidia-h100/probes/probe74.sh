#!/usr/bin/env bash
# Probe 74: split counts and tiles again at #17's worst shapes (since 679bcd6 made step 10's
# one-launch sums cheaper), by the rules and beside them; and fp32 auto N T batches with
# CLBlast beside them after the READT=1 rule (88e9baf).
source .gpu/setup.sh
P=$OUT/probe74.txt
run() { local tag=$1 dt=$2 sz=$3 b=$4 tr=$5 base=$6; shift 6; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 150 build-gpu/clgemm --device nvidia $base --dtype $dt "${o[@]}" --trans $tr --size $sz --batch $b --iters 100 --format json "${a[@]}" 2>>$OUT/probe74.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), r.get("params"), flush=True)' $tag $dt $sz $b $tr; }
T16="wgmma_tma:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=1"
T128="wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
T64="wgmma_tma:BM=128,BN=64,WGN=64,STAGES=8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
{
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2; do
for dt in f16 bf16; do for sz in 16x4096x4096 16x6144x4096; do
  run r$rep $dt $sz 1 NT --no-baseline tensor_core "$T16" "$T16,SPLITK=2" "$T16,SPLITK=3" "$T16,SPLITK=4" "wgmma_tma:BM=64,BN=16,WGN=16,STAGES=12,SWAP=1,INFLIGHT=1,SPLITK=2"
done; done
for sz in 128x4096x4096 128x6144x4096 128x4096x14336; do
  run r$rep f32 $sz 1 NT --no-baseline tensor_core "$T128,SPLITK=2" "$T128,SPLITK=3" "$T128,SPLITK=4" "$T128,SPLITK=5" "$T64" "$T64,SPLITK=2" "$T64,SPLITK=3"
done
done
for b in "64 512x512x64" "512 128x128x64"; do set -- $b
  for tr in NN NT; do run batch f32 $2 $1 $tr "" auto; done; done
} > $P 2>&1
tail -1 $P
