#!/usr/bin/env bash
# Probe 163: candidate TF32 rules from probe162 at every shape of their class, N T, two rounds:
# M <= 128 with 64-row weight tiles and the rounding warpgroup split in 1-3, M <= 512 swapped
# with the activations rounded by the pre-pass (PACKB=1), against the rules; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe163.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 "$@" 2>>$OUT/probe163.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag" || echo "$tag $*: no JSON"; }
W=wgmma_tma
H8=$W:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
B5=$W:BM=128,BN=128,WGN=128,STAGES=5,SWAP=1,PACKA=3,PACKB=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do
  for sz in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336 96x5120x5120 48x4096x4096 100x3000x1000; do
    run "$round $sz" --trans NT --size $sz --algo tensor_core --algo $H8 --algo $H8,SPLITK=2 --algo $H8,SPLITK=3
  done
  for sz in 512x4096x4096 512x4096x14336 512x28672x4096 512x6144x4096 300x5120x5120 256x4096x4096 200x3000x1000; do
    run "$round $sz" --trans NT --size $sz --algo tensor_core --algo $B5 --algo $B5,SPLITK=2
  done
done
python3 bench/cublas.py tf32:128x28672x4096:NT tf32:128x4096x14336:NT tf32:96x5120x5120:NT tf32:48x4096x4096:NT tf32:512x28672x4096:NT tf32:512x6144x4096:NT tf32:300x5120x5120:NT tf32:256x4096x4096:NT 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
