#!/usr/bin/env bash
# Probe: why TF32 at M = 128 and 16 runs at half the bytes per second of bf16 (same tiles in
# bytes, same wgmma cycles per slice): tiles, splits, INFLIGHT, where the rounding happens,
# and the kernel alone (CLGEMM_TIME_LAST_KERNEL_ONLY) without the pre-pass.
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe15.txt
run() { local tag=$1 dt=$2 sz=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 $C --device nvidia --dtype $dt --size $sz --trans NT --no-baseline --iters 50 --format json "${a[@]}" 2>>$OUT/probe15.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], sys.argv[2], sys.argv[3], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("params"))' $tag $dt $sz; }
{
w=wgmma_tma
L=BM=64,BN=128,WGN=128,STAGES=8,SWAP=1
H=BM=128,BN=128,WGN=128,STAGES=6,SWAP=1
echo "== 128x4096x4096"
run ref bf16 128x4096x4096 tensor_core $w:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1,SPLITK=2
run tf32 f32 128x4096x4096 tensor_core $w:$L,INFLIGHT=1,PACKA=2,PACKB=2 $w:$L,INFLIGHT=1,PACKA=2,PACKB=2,SPLITK=2 \
  $w:$L,PACKA=3,PACKB=2 $w:$L,PACKA=3,PACKB=2,SPLITK=2 $w:$L,PACKA=3,PACKB=2,INFLIGHT=1,SPLITK=2 \
  $w:$L,INFLIGHT=1,PACKA=0,PACKB=2 $w:$H,PACKA=0,PACKB=2,INFLIGHT=0,SPLITK=4 $w:$H,PACKA=0,PACKB=2,INFLIGHT=2,SPLITK=4 \
  $w:$H,PACKA=2,PACKB=2,SPLITK=8 $w:BM=128,BN=64,WGN=64,STAGES=9,SWAP=1,PACKA=2,PACKB=2,SPLITK=2
CLGEMM_TIME_LAST_KERNEL_ONLY=1 run kernel-only f32 128x4096x4096 $w:$H,PACKA=0,PACKB=1,SPLITK=4 $w:$L,INFLIGHT=1,PACKA=0,PACKB=1 $w:$L,INFLIGHT=1,PACKA=0,PACKB=1,SPLITK=2 $w:$H,PACKA=2,PACKB=2,SPLITK=4
echo "== 16x4096x4096"
S=BM=64,BN=16,WGN=16,STAGES=16,SWAP=1
run ref bf16 16x4096x4096 tensor_core
run tf32 f32 16x4096x4096 tensor_core $w:$S,INFLIGHT=1,PACKA=2,PACKB=2 $w:$S,INFLIGHT=1,PACKA=2,PACKB=2,SPLITK=2 \
  $w:$S,PACKA=3,PACKB=2 $w:$S,PACKA=3,PACKB=2,SPLITK=2 $w:$S,INFLIGHT=1,PACKA=3,PACKB=2,SPLITK=2 \
  $w:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=2,SPLITK=4 $w:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=0,PACKB=2,SPLITK=4
CLGEMM_TIME_LAST_KERNEL_ONLY=1 run kernel-only f32 16x4096x4096 $w:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=0,PACKB=1,SPLITK=4 $w:$S,INFLIGHT=1,PACKA=0,PACKB=1
echo "== 128x4096x14336, 128x6144x4096"
run tf32 f32 128x4096x14336 tensor_core $w:$L,INFLIGHT=1,PACKA=2,PACKB=2,SPLITK=2 $w:$L,PACKA=3,PACKB=2,SPLITK=2 $w:$L,PACKA=3,PACKB=2,SPLITK=4
run tf32 f32 128x6144x4096 tensor_core $w:$L,INFLIGHT=1,PACKA=2,PACKB=2 $w:$L,PACKA=3,PACKB=2 $w:$L,PACKA=3,PACKB=2,SPLITK=2
} > $P 2>&1
cat $P
