#!/usr/bin/env bash
# Probe 158: step 10 with A in registers (PACKA=3): the slice's fragments loaded before one
# fence (INFLIGHT 0), and INFLIGHT 1 as CUTLASS's RS schedule (a commit group per k step, two
# running), in the working tree, against HEAD built beside it (a fence per k step).  TF32 at
# 4096^3 and 4096x28672x4096 (A or, swapped, the weight in registers: one pre-pass fewer),
# the M = 128 / 16 rules and tf32x3's; two interleaved rounds; build logs; test_bitwise on
# the GPU; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe158.txt
run() { local tag=$1 exe=$2; shift 2
  timeout 150 $exe --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe158.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
T=wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
S=wgmma_tma:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=4
X=wgmma_tma:BM=128,BN=128,WGN=128,STAGES=4,SWAP=1,SPLIT=1,PACKA=3,SPLITK=4
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    export CLGEMM_CACHE_DIR=/tmp/c$b
    if [ $b = new ]; then
      run "$round $b" $exe --iters 30 --trans NT --size 4096 --algo tensor_core --algo wgmma_tma:PACKA=0 --algo wgmma_tma:PACKA=3 --algo wgmma_tma:PACKA=3,INFLIGHT=1 --algo wgmma_tma:SWAP=1,PACKA=3,INFLIGHT=1
      run "$round $b" $exe --iters 20 --trans NT --size 4096x28672x4096 --algo tensor_core --algo wgmma_tma:PACKA=0 --algo wgmma_tma:SWAP=1,PACKA=3 --algo wgmma_tma:SWAP=1,PACKA=3,INFLIGHT=1
      run "$round $b" $exe --iters 100 --trans NT --size 128x4096x4096 --algo tensor_core --algo $T,SPLITK=3,INFLIGHT=1 --algo $T,SPLITK=4,INFLIGHT=1
      run "$round $b" $exe --iters 100 --trans NT --size 128x6144x4096 --algo tensor_core --algo $T,SPLITK=2,INFLIGHT=1
      run "$round $b" $exe --iters 100 --trans NT --size 16x4096x4096 --algo tensor_core --algo $S,INFLIGHT=1
      run "$round $b" $exe --iters 100 --trans NT --size 128x4096x4096 --algo tensor_core_tf32x3 --algo $X,INFLIGHT=1
    else
      run "$round $b" $exe --iters 30 --trans NT --size 4096 --algo tensor_core --algo wgmma_tma:PACKA=3,INFLIGHT=0
      run "$round $b" $exe --iters 100 --trans NT --size 128x4096x4096 --algo tensor_core
      run "$round $b" $exe --iters 100 --trans NT --size 128x6144x4096 --algo tensor_core
      run "$round $b" $exe --iters 100 --trans NT --size 16x4096x4096 --algo tensor_core
      run "$round $b" $exe --iters 100 --trans NT --size 128x4096x4096 --algo tensor_core_tf32x3
    fi
  done
done
for a in "4096 wgmma_tma:PACKA=3,INFLIGHT=1" "4096 wgmma_tma:PACKA=3" "4096x28672x4096 wgmma_tma:SWAP=1,PACKA=3,INFLIGHT=1" "128x4096x4096 $T,SPLITK=3,INFLIGHT=1" "128x4096x4096 $T,SPLITK=3" "16x4096x4096 $S,INFLIGHT=1" "128x4096x4096 $X,INFLIGHT=1"; do
  set -- $a
  echo "== build log $2 ($1)"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 100 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size $1 --iters 3 --algo $2 2>&1 | grep -iE "serializ|C75|registers" | head -4
done
echo "== test_bitwise full"
timeout 200 build-gpu/tests/test_bitwise full 2>&1 | tail -25
python3 bench/cublas.py tf32:4096x4096x4096:NT tf32:4096x28672x4096:NT tf32:128x4096x4096:NT tf32:128x6144x4096:NT tf32:16x4096x4096:NT fp32:128x4096x4096:NT 2>&1 | grep -v "^{" | tail -8
} > $P 2>&1
tail -3 $P
