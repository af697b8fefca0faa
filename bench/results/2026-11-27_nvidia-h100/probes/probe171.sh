#!/usr/bin/env bash
# Probe 171: fp32 auto where no rule applies, 128 < M <= 512 with N >= 2048 (no fp32 rule past
# M = 128), N T and N N: auto against step 7 swapped (SWAP=1, READT=0: the weight as the plain
# kernel's A, X packed) and unswapped (READT=1) with 1, 2, 4 slices; the device's reported
# cache size; cuBLAS fp32 after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe171.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 30 "$@" 2>>$OUT/probe171.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag" || echo "$tag $*: no JSON"; }
S2=warp_tiled:SWAP=1,READT=0
R=warp_tiled:READT=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
gcc -O2 -I/tmp/ocl/usr/include -o /tmp/cache_size bench/results/2026-11-27_nvidia-h100/probes/probe171_cache_size.c -L/tmp/ocl/usr/lib/x86_64-linux-gnu -lOpenCL && /tmp/cache_size
for sz in 256x4096x4096 512x4096x4096 200x6144x4096 384x28672x4096 256x4096x14336 512x5120x5120 300x3000x1000; do
  run "NT $sz" --trans NT --size $sz --algo auto --algo $S2 --algo $S2,SPLITK=2 --algo $S2,SPLITK=4 --algo $R --algo $R,SPLITK=2 --algo $R,SPLITK=4
  run "NN $sz" --trans NN --size $sz --algo auto --algo warp_tiled --algo warp_tiled:SPLITK=2 --algo warp_tiled:SPLITK=4
done
python3 bench/cublas.py fp32:256x4096x4096:NT fp32:512x4096x4096:NT fp32:200x6144x4096:NT fp32:384x28672x4096:NT fp32:256x4096x14336:NT fp32:512x5120x5120:NT fp32:300x3000x1000:NT fp32:256x4096x4096:NN fp32:512x4096x4096:NN fp32:384x28672x4096:NN 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
