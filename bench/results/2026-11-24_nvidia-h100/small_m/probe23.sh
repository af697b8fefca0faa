#!/usr/bin/env bash
# Probe 23: 16-bit at M = 128 and 16 (X W^T, NT): the swapped problem with 64 x 64 tiles
# (128 blocks at N = 4096, where the rule's 64 x 128 makes 64) and split variants.
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe23.txt
run() { local tag=$1 tr=$2 sz=$3 dt=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $C --device nvidia --size $sz --trans $tr --dtype $dt --no-baseline --iters 50 --format json "${a[@]}" 2>>$OUT/probe23.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("params"), flush=True)' $tag $tr $sz $dt; }
{
w=wgmma_tma
for dt in f16 bf16; do
for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
  run m128 NT $sz $dt tensor_core $w:BM=64,BN=64,WGN=64,STAGES=12,SWAP=1,INFLIGHT=1 \
     $w:BM=64,BN=64,WGN=64,STAGES=8,SWAP=1,INFLIGHT=1 $w:BM=128,BN=64,WGN=64,STAGES=8,SWAP=1,INFLIGHT=1 \
     $w:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1,SPLITK=2
done
for sz in 16x4096x4096 16x6144x4096; do
  run m16 NT $sz $dt tensor_core $w:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=1,SPLITK=2 \
     $w:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=2 $w:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=2,SPLITK=2
done
done
} > $P 2>&1
cat $P
