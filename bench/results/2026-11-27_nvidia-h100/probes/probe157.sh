#!/usr/bin/env bash
# Probe 157 (896f1a4): 16-bit M = 128, N T, the rule (swapped, 64 weight rows x 128 tokens per
# group: 64 groups at N = 4096) against swapped 64 x 64 tiles (the tokens in two halves: twice
# the groups), three rounds; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe157.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --iters 100 --format json -q "$@" 2>>$OUT/probe157.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
T=wgmma_tma:BM=64,BN=64,WGN=64,SWAP=1,INFLIGHT=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2 r3; do
  for d in f16 bf16; do
    for s in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336; do
      run $round --trans NT --size $s --dtype $d --out $d --algo tensor_core --algo $T,STAGES=12 --algo $T,STAGES=8
    done
  done
done
python3 bench/cublas.py f16:128x4096x4096:NT bf16:128x4096x4096:NT f16:128x6144x4096:NT bf16:128x6144x4096:NT f16:128x28672x4096:NT bf16:128x28672x4096:NT f16:128x4096x14336:NT bf16:128x4096x14336:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -3 $P
