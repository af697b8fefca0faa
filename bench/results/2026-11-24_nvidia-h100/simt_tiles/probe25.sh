#!/usr/bin/env bash
# Probe 25. (a) fp32 SIMT (step 7) with 128-thread groups and 16 x 8 results per work-item
# (cuBLAS's sm80 fp32 kernel is 128x128x8 on four warps), and other tiles, at 4096^3 (NN, NT)
# and the Llama M = 128 shapes (NT) with splits 1..8; registers per config from NVIDIA's log.
# (b) TF32 at 4096^3 NT: where the pre-pass's time goes (rounding in local memory per operand,
# kernel-only timing).
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe25.txt
run() { local tag=$1 tr=$2 sz=$3 dt=$4 it=$5; shift 5; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 300 $C --device nvidia --size $sz --trans $tr --dtype $dt --no-baseline --iters $it --format json "${a[@]}" 2>>$OUT/probe25.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $tag $tr $sz $dt; }
W=(BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16
   BM=128,BN=128,BK=8,TM=16,TN=8,WM=64,WN=64
   BM=128,BN=128,BK=8,TM=8,TN=16,WM=32,WN=128
   BM=128,BN=128,BK=16,TM=16,TN=8,WM=64,WN=64
   BM=64,BN=128,BK=8,TM=8,TN=8,WM=64,WN=32
   BM=128,BN=64,BK=8,TM=8,TN=8,WM=128,WN=16
   BM=256,BN=128,BK=8,TM=16,TN=8,WM=128,WN=32
   BM=128,BN=256,BK=8,TM=8,TN=16,WM=64,WN=64)
{
for p in "${W[@]}"; do
  echo "regs $p: $(CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose $C --device nvidia --size 256 --no-baseline --iters 1 --algo warp_tiled:$p 2>&1 | grep -o 'Used [0-9]* registers[^\n]*' | head -1)"
done
for tr in NN NT; do
  a=(); for p in "${W[@]}"; do a+=(warp_tiled:$p); done
  run f32-4096 $tr 4096 f32 20 auto "${a[@]}"
done
for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
  a=(auto)
  for p in "${W[@]}"; do for s in 1 2 4 8; do
    [ $s = 1 ] && a+=(warp_tiled:$p) || a+=(warp_tiled:$p,SPLITK=$s); done; done
  run f32-m128 NT $sz f32 50 "${a[@]}"
done
w=wgmma_tma
for rep in 1 2; do
run tf32-4096 NT 4096 f32 20 tensor_core $w $w:PACKA=2 $w:PACKB=2 $w:PACKA=2,PACKB=2 \
   $w:PACKA=0 $w:BN=128,WGN=128,STAGES=6,PACKA=2,PACKB=2 $w:BN=128,WGN=128,STAGES=6
CLGEMM_TIME_LAST_KERNEL_ONLY=1 run tf32-4096-kernel-only NT 4096 f32 20 $w $w:PACKA=2 $w:PACKB=2 $w:PACKA=0
done
} > $P 2>&1
cat $P
