#!/usr/bin/env bash
# Probe 117: what split-K's second launch costs step 7 at M = 128: the split call (SPLITK=4:
# a batched launch over the slices, then cl/splitk_reduce.cl) against the same work as a batch
# of 4 problems of K/4 (the first launch alone), and the reduction kernel alone.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe117.txt
run() { local sz=$1 b=$2 tag=$3; shift 3
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size $sz --batch $b --iters 100 --format json --algo "$@" 2>>$OUT/probe117.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag $sz b$b" || echo "$sz : no JSON"; }
R=warp_tiled:READT=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for round in 1 2; do
  run 128x4096x4096 1 split4 $R,SPLITK=4
  run 128x4096x1024 4 batch4-of-K/4 $R
  export CLGEMM_TIME_LAST_KERNEL_ONLY=1; run 128x4096x4096 1 reduce-alone $R,SPLITK=4; unset CLGEMM_TIME_LAST_KERNEL_ONLY
  run 128x4096x14336 1 split4 $R,SPLITK=4
  run 128x4096x3584 4 batch4-of-K/4 $R
  run 128x28672x4096 1 split4 $R,SPLITK=4
  run 128x28672x1024 4 batch4-of-K/4 $R
done
} > $P 2>&1
tail -3 $P
