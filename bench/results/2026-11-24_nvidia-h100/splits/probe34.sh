#!/usr/bin/env bash
# Probe 34: M = 128 (and 16) tiles and splits that fill 132 SMs, against the rules' choice.
# (a) fp32 SIMT (warp_tiled) at 128 x {4096, 6144, 28672} x 4096 and 128 x 4096 x 14336 NT:
#     the 128 x 128 tile with 2..6 slices, 64 x 128 and 128 x 64 tiles of 128 work-items;
# (b) TF32 step 10 swapped: BM 64 / 128, BN 128 / 64, with the splits that make ~132 groups;
# (c) 16-bit M = 16 at 4096 x 4096 (64 groups of BM = 64): split 2, BM = 128 split 4.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$OUT/probe34.txt
run() { local tag=$1 dt=$2 sz=$3 tr=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 300 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe34.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gflops"), flush=True)' $tag $dt $sz $tr; }
WT=warp_tiled:READT=1
W64="warp_tiled:BM=64,BN=128,WM=64,WN=32,READT=1"
W64B="warp_tiled:BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16,CLAMP=1,READT=1"
WN64="warp_tiled:BM=128,BN=64,WN=16,READT=1"
{
for rep in 1 2; do
for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
  a=(auto)
  for s in 1 2 3 4 6; do a+=("$WT,SPLITK=$s"); done
  for s in 1 2 3 4 6 8; do a+=("$W64,SPLITK=$s" "$W64B,SPLITK=$s" "$WN64,SPLITK=$s"); done
  run a$rep f32 $sz NT "${a[@]}"
done
done
echo "a done at $(( $(date +%s) - T0 )) s"
T="WGN=128,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
T2="WGN=128,SWAP=1,PACKA=2,PACKB=2"
for rep in 1 2; do
for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
  a=(tensor_core)
  for s in 1 2 3 4; do a+=("wgmma_tma:BM=128,BN=128,STAGES=6,$T,SPLITK=$s" "wgmma_tma:BM=64,BN=128,STAGES=8,$T,SPLITK=$s" "wgmma_tma:BM=64,BN=128,STAGES=8,$T2,SPLITK=$s"); done
  for s in 1 2; do a+=("wgmma_tma:BM=64,BN=64,STAGES=12,${T/WGN=128/WGN=64},SPLITK=$s" "wgmma_tma:BM=64,BN=64,STAGES=12,${T2/WGN=128/WGN=64},SPLITK=$s"); done
  run b$rep f32 $sz NT "${a[@]}"
done
done
echo "b done at $(( $(date +%s) - T0 )) s"
for rep in 1 2; do
for dt in bf16 f16; do
  a=(tensor_core)
  for s in 1 2 3 4; do a+=("wgmma_tma:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=1,SPLITK=$s" "wgmma_tma:BM=128,BN=16,WGN=16,STAGES=12,SWAP=1,INFLIGHT=1,SPLITK=$s"); done
  run c$rep $dt 16x4096x4096 NT "${a[@]}"
  run c$rep $dt 16x6144x4096 NT "${a[@]}"
done
done
echo "c done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
cat $P | awk '{print}' | tail -5
