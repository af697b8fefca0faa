#!/usr/bin/env bash
# Probe 35: does the split that minimises rounds of blocks per SM (ceil(tiles x S / 132) / S)
# pick the fastest warp_tiled split at M <= 128 (fp32, NT, 128 x 128 blocks)?  Every split
# 1..16 that cuts K evenly, at the Llama shapes and at widths nobody tuned for.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$OUT/probe35.txt
run() { local tag=$1 dt=$2 sz=$3 tr=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 300 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe35.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gflops"), flush=True)' $tag $dt $sz $tr; }
{
for rep in 1 2; do
for sz in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336 128x5120x4096 100x3072x4096 64x11008x4096 128x8192x8192 32x6144x4096 128x2048x8192; do
  a=(auto)
  for s in 1 2 4 8 16; do a+=("warp_tiled:READT=1,SPLITK=$s"); done
  run a$rep f32 $sz NT "${a[@]}"
done
done
echo "a done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
