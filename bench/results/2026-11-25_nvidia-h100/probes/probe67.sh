#!/usr/bin/env bash
# Probe 67 (677c8b2): step 7 at fp32 M = 128 NT where its split leaves one group per SM
# (probe66: 4 slices of 32 blocks, 0.131 ms at 128x4096x4096, of which the reduction 0.007):
# there the 128-register budget that keeps two groups per SM buys nothing, so wider K slices
# (BK=16, 137 registers) and other warp shapes, at the rule's split and around it.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$OUT/probe67.txt
run() { local tag=$1 sz=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 300 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe67.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), (r.get("note") or "")[:110], flush=True)' $tag $sz; }
W="warp_tiled:READT=1"
{
for rep in 1 2; do
  for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
    a=(auto)
    for s in 3 4 6; do a+=("$W,BK=16,SPLITK=$s" "$W,BK=16,WM=64,WN=32,SPLITK=$s" "$W,BK=16,PREFETCH=0,SPLITK=$s" "$W,WM=64,WN=32,SPLITK=$s"); done
    run r$rep $sz "${a[@]}"
  done
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -1 $P
