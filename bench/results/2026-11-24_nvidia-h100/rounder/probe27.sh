#!/usr/bin/env bash
# Probe 27: TF32 with ROUNDER=2 (three rounding warps beside the producer warp: 384
# work-items, the 256-wide tile's registers) at 4096^3 NT, one operand rounded in local memory
# and the other by the pre-pass; and both rounders at M = 512 and 128.  test_bitwise first.
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe27.txt
run() { local tag=$1 tr=$2 sz=$3 dt=$4 it=$5; shift 5; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 300 $C --device nvidia --size $sz --trans $tr --dtype $dt --no-baseline --iters $it --format json "${a[@]}" 2>>$OUT/probe27.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $tag $tr $sz $dt; }
{
CLGEMM_TEST_DEVICE=nvidia timeout 200 build-gpu/tests/test_bitwise > $OUT/test_bitwise.log 2>&1; echo "test_bitwise rc=$? $(grep -c '^ok' $OUT/test_bitwise.log) ok $(grep -c '^FAIL' $OUT/test_bitwise.log) FAIL"
w=wgmma_tma
for p in PACKA=2,ROUNDER=2 PACKB=2,ROUNDER=2 PACKA=2,PACKB=2,ROUNDER=2; do
  echo "regs $p: $(CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose $C --device nvidia --size 4096 --trans NT --no-baseline --iters 1 --algo $w:$p 2>&1 | grep -o 'Used [0-9]* registers[^\n]*\|spill[^\n]*' | head -2 | tr '\n' ' ')"
done
for rep in 1 2; do
run tf32-4096 NT 4096 f32 20 tensor_core $w:PACKA=2,ROUNDER=2 $w:PACKB=2,ROUNDER=2 $w:PACKA=2,PACKB=2,ROUNDER=2 \
   $w:PACKA=2,ROUNDER=2,STAGES=3 $w:PACKA=2,ROUNDER=2,INFLIGHT=0
CLGEMM_TIME_LAST_KERNEL_ONLY=1 run tf32-4096-kernel-only NT 4096 f32 20 $w $w:PACKA=2,ROUNDER=2 $w:PACKB=2,ROUNDER=2
run tf32-8192 NT 8192 f32 10 tensor_core $w:PACKA=2,ROUNDER=2
run tf32-4096x14336 NT 4096x4096x14336 f32 10 tensor_core $w:PACKA=2,ROUNDER=2
done
for sz in 512x4096x4096 512x4096x14336; do
  run m512 NT $sz f32 30 tensor_core $w:BM=128,BN=128,WGN=128,STAGES=5,PACKA=2,PACKB=2,ROUNDER=1 \
    $w:BM=128,BN=128,WGN=128,STAGES=5,PACKA=3,PACKB=2,ROUNDER=1 $w:BM=128,BN=128,WGN=128,STAGES=5,PACKA=2,PACKB=2,ROUNDER=2 \
    $w:PACKA=2,ROUNDER=2 $w:PACKA=2,PACKB=2,ROUNDER=2
done
for sz in 128x4096x4096 128x6144x4096; do
  run m128 NT $sz f32 50 tensor_core $w:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=2,SPLITK=3 \
    $w:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=2,SPLITK=2
done
} > $P 2>&1
cat $P
