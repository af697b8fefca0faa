#!/usr/bin/env bash
# Probe 162: TF32 N T at M = 512, 128 and 16 (the rules 0.082 / 0.044 / 0.033 ms against
# cuBLAS 0.050 / 0.032 / 0.030, probe161): forms tools/tune_rules.py does not offer: swapped
# with the activations rounded by the pre-pass (PACKB=1: no rounder, a small pass), swapped at
# M = 512, 256-wide token tiles, 64-row weight tiles, and splits; the working tree; two rounds.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe162.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 "$@" 2>>$OUT/probe162.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:3], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
W=wgmma_tma
B5=BM=128,BN=128,WGN=128,STAGES=5
B6=BM=128,BN=128,WGN=128,STAGES=6
W4=BM=128,BN=256,WGN=256,STAGES=4
H8=BM=64,BN=128,WGN=128,STAGES=8
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do
  run "$round 512x4096x4096" --trans NT --size 512x4096x4096 --algo tensor_core \
    --algo $W:$B5,SWAP=1,PACKA=3,PACKB=1 --algo $W:$B5,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1 \
    --algo $W:$W4,SWAP=1,PACKA=3,PACKB=1 --algo $W:$W4,SWAP=1,PACKA=3,PACKB=1,SPLITK=2 \
    --algo $W:$B5,PACKA=1,PACKB=2,ROUNDER=1 --algo $W:$B5,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=2 \
    --algo $W:$B5,SWAP=1,PACKA=3,PACKB=1,SPLITK=2
  run "$round 512x4096x14336" --trans NT --size 512x4096x14336 --algo tensor_core \
    --algo $W:$B5,SWAP=1,PACKA=3,PACKB=1 --algo $W:$W4,SWAP=1,PACKA=3,PACKB=1,SPLITK=2
  run "$round 128x4096x4096" --trans NT --size 128x4096x4096 --algo tensor_core \
    --algo $W:$B6,SWAP=1,PACKA=3,PACKB=1,SPLITK=3 --algo $W:$B6,SWAP=1,PACKA=3,PACKB=1,SPLITK=4 \
    --algo $W:$H8,SWAP=1,PACKA=3,PACKB=1 --algo $W:$H8,SWAP=1,PACKA=3,PACKB=1,SPLITK=2 \
    --algo $W:$H8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1 --algo $W:$H8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=2
  run "$round 128x6144x4096" --trans NT --size 128x6144x4096 --algo tensor_core \
    --algo $W:$B6,SWAP=1,PACKA=3,PACKB=1,SPLITK=2 --algo $W:$H8,SWAP=1,PACKA=3,PACKB=1 \
    --algo $W:$H8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
  run "$round 16x4096x4096" --trans NT --size 16x4096x4096 --algo tensor_core \
    --algo $W:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=1,SPLITK=4 \
    --algo $W:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,PACKA=3,PACKB=1,SPLITK=2 \
    --algo $W:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,PACKA=3,PACKB=1,SPLITK=4
done
python3 bench/cublas.py tf32:512x4096x4096:NT tf32:512x4096x14336:NT tf32:128x4096x4096:NT tf32:128x6144x4096:NT tf32:16x4096x4096:NT 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
