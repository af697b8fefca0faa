#!/usr/bin/env bash
# Probe: PACKB=3 with the producer's rounding loop keeping eight loads in flight per lane;
# and 128 x 64 tiles (BN=64 on the swapped problem) with both operands rounded by the consumers
# at the four M = 128 llama shapes, against the shipped rule (128 x 128, split).
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe17.txt
run() { local tag=$1 tr=$2 sz=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 $C --device nvidia --size $sz --trans $tr --no-baseline --iters 50 --format json "${a[@]}" 2>>$OUT/probe17.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], sys.argv[2], sys.argv[3], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("params"))' $tag $tr $sz; }
{
w=wgmma_tma
N=BM=128,BN=64,WGN=64,STAGES=9,SWAP=1
T=BM=128,BN=16,WGN=16,STAGES=11,SWAP=1
run deep NT 4096x4096x4096 tensor_core $w:PACKA=1,PACKB=3 $w:PACKA=0,PACKB=3
run deep NT 128x4096x4096 $w:$N,PACKA=3,PACKB=3,SPLITK=2 $w:$N,PACKA=2,PACKB=3,SPLITK=2 $w:$N,PACKA=0,PACKB=3,SPLITK=2
run deep NT 16x4096x4096 $w:$T,PACKA=3,PACKB=3,SPLITK=4 $w:$T,PACKA=2,PACKB=3,SPLITK=4
run bn64 NT 128x4096x4096 tensor_core $w:$N,PACKA=2,PACKB=2,SPLITK=2 $w:$N,PACKA=2,PACKB=2,SPLITK=3 $w:$N,PACKA=3,PACKB=2,SPLITK=2
run bn64 NT 128x6144x4096 tensor_core $w:$N,PACKA=2,PACKB=2 $w:$N,PACKA=2,PACKB=2,SPLITK=2
run bn64 NT 128x4096x14336 tensor_core $w:$N,PACKA=2,PACKB=2,SPLITK=2 $w:$N,PACKA=2,PACKB=2,SPLITK=4
run bn64 NT 128x28672x4096 tensor_core $w:$N,PACKA=2,PACKB=2
run bn64 NN 128x4096x4096 tensor_core $w:$N,PACKA=2,PACKB=2,SPLITK=2
} > $P 2>&1
cat $P
