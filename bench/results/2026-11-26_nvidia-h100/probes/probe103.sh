#!/usr/bin/env bash
# Probe 103: (1) fp32 auto at M = 128 (step 7, split 4 by the rule, then cl/splitk_reduce.cl):
# the whole call against the last kernel alone (the reduction), and SPLITK 1..8, to see what
# the second launch costs; (2) 16-bit batches of 128x128x64 at batch 1..1024: the floor and
# the slope, against bmm's.
source .gpu/setup.sh
rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
P=$OUT/probe103.txt
run() { local sz=$1 tr=$2 b=$3 extra=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 150 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --batch $b --iters 100 --format json $extra "${a[@]}" 2>>$OUT/probe103.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("params"), flush=True)' "$sz $tr $b $extra ${CLGEMM_TIME_LAST_KERNEL_ONLY:+last-kernel-only}" || echo "$sz $tr $b : no JSON"; }
R=warp_tiled:READT=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sz in 128x4096x4096 128x4096x14336 128x28672x4096; do
  run $sz NT 1 "" auto $R,SPLITK=1 $R,SPLITK=2 $R,SPLITK=4 $R,SPLITK=8
  export CLGEMM_TIME_LAST_KERNEL_ONLY=1; run $sz NT 1 "" auto $R,SPLITK=2 $R,SPLITK=4; unset CLGEMM_TIME_LAST_KERNEL_ONLY
done
for b in 1 8 66 132 264 512 1024 2048; do
  run 128x128x64 NN $b "--dtype f16 --out f16" tensor_core
done
python3 bench/cublas.py fp32:128x4096x4096:NT fp32:128x4096x14336:NT fp32:128x28672x4096:NT f16:128x128x64:b1:r100 f16:128x128x64:b8:r100 f16:128x128x64:b66:r100 f16:128x128x64:b132:r100 f16:128x128x64:b264:r100 f16:128x128x64:b512:r100 f16:128x128x64:b1024:r100 f16:128x128x64:b2048:r100 2>&1 >/dev/null | grep '^cublas'
} > $P 2>&1
tail -3 $P
