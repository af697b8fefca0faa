#!/usr/bin/env bash
# Probe: one consumer warpgroup (64 x 128 tiles of the swapped problem), A rounded in
# registers with one slice in flight (PACKA=3, INFLIGHT=1: no serialization in NVIDIA's
# build log), B (the small X) rounded by the pre-pass (PACKB=1), at the M = 128 and 16 shapes.
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe18.txt
run() { local tag=$1 tr=$2 sz=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 $C --device nvidia --size $sz --trans $tr --no-baseline --iters 50 --format json "${a[@]}" 2>>$OUT/probe18.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], sys.argv[2], sys.argv[3], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("params"))' $tag $tr $sz; }
{
w=wgmma_tma
L=BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1
S=BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=1
for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
  run rs NT $sz tensor_core $w:$L,PACKA=3,PACKB=1 $w:$L,PACKA=3,PACKB=1,SPLITK=2 $w:$L,PACKA=3,PACKB=2
done
run rs NT 16x4096x4096 tensor_core $w:$S,PACKA=3,PACKB=1 $w:$S,PACKA=3,PACKB=1,SPLITK=2
run rs NT 16x4096x14336 tensor_core $w:$S,PACKA=3,PACKB=1,SPLITK=2 $w:$S,PACKA=3,PACKB=1,SPLITK=4
} > $P 2>&1
cat $P
