#!/usr/bin/env bash
# Probe: step 10's TF32 with B rounded by the producer warp (PACKB=3) and A in registers
# (PACKA=3) or in local memory (PACKA=2) or by the pre-pass (PACKA=1), at the llama shapes, NT;
# build logs of two forms (serialization, spills).
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe16.txt
run() { local tag=$1 tr=$2 sz=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 $C --device nvidia --size $sz --trans $tr --no-baseline --iters 50 --format json "${a[@]}" 2>>$OUT/probe16.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], sys.argv[2], sys.argv[3], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("params"))' $tag $tr $sz; }
{
echo "== build logs"
for a in 'wgmma_tma:BM=128,BN=64,WGN=64,STAGES=9,SWAP=1,PACKA=3,PACKB=3,SPLITK=2' 'wgmma_tma:PACKA=1,PACKB=3' 'wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1,PACKA=3,PACKB=3'; do
  echo "-- $a"
  CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 timeout 120 $C --device nvidia --size 512 --trans NT --no-baseline --iters 2 --algo "$a" 2>&1 | grep -iE "serializ|gemm_wgmma_tma|registers|spill|FAIL" | grep -v "Used 1[68] reg\|Used 4 reg\|Used 32 reg" | sort | uniq | head -6
done
w=wgmma_tma
H=BM=128,BN=128,WGN=128,STAGES=6,SWAP=1
N=BM=128,BN=64,WGN=64,STAGES=9,SWAP=1
L=BM=64,BN=128,WGN=128,STAGES=8,SWAP=1
run m128 NT 128x4096x4096 tensor_core $w:$H,PACKA=3,PACKB=3,SPLITK=4 $w:$H,PACKA=2,PACKB=3,SPLITK=4 $w:$N,PACKA=3,PACKB=3,SPLITK=2 $w:$N,PACKA=3,PACKB=3 $w:$N,PACKA=2,PACKB=3,SPLITK=2 \
  $w:$L,INFLIGHT=1,PACKA=3,PACKB=3 $w:$L,INFLIGHT=1,PACKA=3,PACKB=3,SPLITK=2 $w:$L,INFLIGHT=1,PACKA=0,PACKB=3 $w:$L,PACKA=3,PACKB=3 $w:$N,PACKA=0,PACKB=3,SPLITK=2
S=BM=64,BN=16,WGN=16,STAGES=16,SWAP=1
T=BM=128,BN=16,WGN=16,STAGES=11,SWAP=1
run m16 NT 16x4096x4096 tensor_core $w:$S,INFLIGHT=1,PACKA=3,PACKB=3 $w:$S,INFLIGHT=1,PACKA=3,PACKB=3,SPLITK=2 $w:$S,PACKA=3,PACKB=3,SPLITK=2 $w:$T,PACKA=3,PACKB=3,SPLITK=4 $w:$T,PACKA=3,PACKB=3,SPLITK=2 $w:$S,INFLIGHT=1,PACKA=0,PACKB=3
run m16 NT 16x4096x14336 tensor_core $w:$S,INFLIGHT=1,PACKA=3,PACKB=3,SPLITK=2 $w:$T,PACKA=3,PACKB=3,SPLITK=4
run m16 NT 16x6144x4096 tensor_core $w:$S,INFLIGHT=1,PACKA=3,PACKB=3 $w:$T,PACKA=3,PACKB=3,SPLITK=2
for sz in 128x6144x4096 128x4096x14336 128x28672x4096; do
  run m128 NT $sz tensor_core $w:$H,PACKA=3,PACKB=3 $w:$N,PACKA=3,PACKB=3 $w:$N,PACKA=3,PACKB=3,SPLITK=2 $w:$L,INFLIGHT=1,PACKA=3,PACKB=3
done
run m512 NT 512x4096x4096 tensor_core $w:BM=128,BN=128,WGN=128,STAGES=5,PACKA=3,PACKB=3 $w:BM=128,BN=128,WGN=128,STAGES=5,PACKA=2,PACKB=3 $w:BM=128,BN=128,WGN=128,STAGES=5,PACKA=1,PACKB=3
run big NT 4096x4096x4096 tensor_core $w:PACKA=1,PACKB=3 $w:PACKA=3,PACKB=3 $w:BN=128,WGN=128,STAGES=6,PACKA=3,PACKB=3 $w:PACKA=0,PACKB=3 $w:BN=192,WGN=64,STAGES=4,PACKA=3,PACKB=3
run big NN 4096x4096x4096 tensor_core $w:PACKA=1,PACKB=3
} > $P 2>&1
cat $P
