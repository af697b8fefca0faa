#!/usr/bin/env bash
# Probe 66 (677c8b2): what step 7's split (batched slices, then cl/splitk_reduce.cl) spends
# outside the GEMM at fp32 M = 128 NT: auto (the rule's split) timed whole and with
# CLGEMM_TIME_LAST_KERNEL_ONLY=1 (the reduction alone), and fixed splits likewise.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$OUT/probe66.txt
run() { local tag=$1 sz=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 300 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe66.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), (r.get("note") or "")[:110], flush=True)' $tag $sz; }
{
for rep in 1 2; do
  for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
    a=(auto warp_tiled:READT=1)
    for s in 2 4 8 16; do a+=("warp_tiled:READT=1,SPLITK=$s"); done
    run whole$rep $sz "${a[@]}"
    CLGEMM_TIME_LAST_KERNEL_ONLY=1 run last$rep $sz "${a[@]}"
  done
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -1 $P
