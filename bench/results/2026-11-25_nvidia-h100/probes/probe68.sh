#!/usr/bin/env bash
# Probe 68 (677c8b2): the floor of one call, the time of a GEMM too small to stream anything
# (64^3, 16 x 128 x 64, one K slice): step 10 (which fetches its tensor maps from global
# memory at its start, TMA_MAP_ACQUIRE) against step 7 and step 11, which have none; and
# step 10 at the small-M rules' shapes with K cut to one slice, so that what is left is the
# fixed cost of a call.
source .gpu/setup.sh
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$OUT/probe68.txt
run() { local tag=$1 dt=$2 sz=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 300 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans NT --size $sz --iters 200 --format json "${a[@]}" 2>>$OUT/probe68.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' $tag $dt $sz; }
{
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2; do
  run r$rep bf16 64x64x64 wgmma_tma "wgmma_tma:BM=64,BN=64,WGN=64,STAGES=2" skinny warp_tiled mma
  run r$rep f32 64x64x64 wgmma_tma "wgmma_tma:BM=64,BN=64,WGN=64,STAGES=2,PACKA=3,PACKB=2" skinny warp_tiled
  run r$rep bf16 16x4096x64 tensor_core skinny
  run r$rep bf16 16x4096x4096 tensor_core
  run r$rep f32 16x4096x64 tensor_core auto
  run r$rep bf16 128x4096x64 tensor_core
done
} > $P 2>&1
tail -1 $P
