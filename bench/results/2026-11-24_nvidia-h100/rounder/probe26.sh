#!/usr/bin/env bash
# Probe 26: TF32 with a rounding warpgroup (ROUNDER=1: a third warpgroup rounds each slot in
# local memory as it lands, off the consumers' path) at the Llama M = 128 and M = 16 shapes
# (NT) and 4096^3, against the rules (tensor_core); test_bitwise on the H100 first (ROUNDER
# pairs equal bit for bit to the pre-pass).
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe26.txt
run() { local tag=$1 tr=$2 sz=$3 dt=$4 it=$5; shift 5; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 300 $C --device nvidia --size $sz --trans $tr --dtype $dt --no-baseline --iters $it --format json "${a[@]}" 2>>$OUT/probe26.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $tag $tr $sz $dt; }
{
CLGEMM_TEST_DEVICE=nvidia timeout 200 build-gpu/tests/test_bitwise > $OUT/test_bitwise.log 2>&1; echo "test_bitwise rc=$? $(grep -c '^ok' $OUT/test_bitwise.log) ok $(grep -c '^FAIL' $OUT/test_bitwise.log) FAIL"
w=wgmma_tma
for p in "BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=2,PACKB=2,ROUNDER=1" "BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1" "BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1,INFLIGHT=1"; do
  echo "regs $p: $(CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose $C --device nvidia --size 128x4096x4096 --trans NT --no-baseline --iters 1 --algo $w:$p 2>&1 | grep -o 'Used [0-9]* registers[^\n]*' | head -1)"
done
for rep in 1 2; do
for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
  a=(tensor_core)
  for p in BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=2,PACKB=2,ROUNDER=1 \
           BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1 \
           BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1 \
           BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,PACKA=2,PACKB=2,ROUNDER=1 \
           BM=64,BN=64,WGN=64,STAGES=12,SWAP=1,PACKA=2,PACKB=2,ROUNDER=1 \
           BM=128,BN=64,WGN=64,STAGES=8,SWAP=1,PACKA=2,PACKB=2,ROUNDER=1; do
    for s in 1 2 3 4; do [ $s = 1 ] && a+=($w:$p) || a+=($w:$p,SPLITK=$s); done
  done
  run m128-r$rep NT $sz f32 50 "${a[@]}"
done
done
for sz in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096; do
  a=(tensor_core)
  for p in BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=2,PACKB=2,ROUNDER=1 \
           BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1 \
           BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,PACKA=2,PACKB=2,ROUNDER=1; do
    for s in 1 2 4; do [ $s = 1 ] && a+=($w:$p) || a+=($w:$p,SPLITK=$s); done
  done
  run m16 NT $sz f32 50 "${a[@]}"
done
run tf32-4096 NT 4096 f32 20 tensor_core $w:PACKA=2,PACKB=2,ROUNDER=1 $w:BN=128,WGN=128,STAGES=6,PACKA=2,PACKB=2,ROUNDER=1 \
   $w:PACKA=3,PACKB=2,ROUNDER=1
} > $P 2>&1
cat $P
