#!/usr/bin/env bash
# Probe 166: TF32 at M = 4096 with A (or, swapped, the weight) rounded in registers, now that
# SETMAXNREG=1 gives the consumers 232 registers: the slice's fragments before one fence
# (INFLIGHT 0) and CUTLASS's RS schedule (INFLIGHT 1, a group per k step), the working tree
# against HEAD built beside it; two rounds; build logs; test_bitwise on the GPU; cuBLAS.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe166.txt
run() { local tag=$1 exe=$2; shift 2
  timeout 250 $exe --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe166.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" || echo "$tag $*: no JSON"; }
W=wgmma_tma
R=PACKA=3,SETMAXNREG=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for a in "$W:$R,INFLIGHT=1" "$W:SWAP=1,$R,INFLIGHT=1" "$W:$R" "$W:BN=128,WGN=128,STAGES=3,SPLIT=1,$R,INFLIGHT=1"; do
  echo "== build log $a"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 100 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size 4096 --iters 3 --algo $a 2>&1 | grep -iE "C75|spill stores [1-9]" | head -4
done
for round in r1 r2; do
  export CLGEMM_CACHE_DIR=/tmp/cnew
  run "$round new tf32 4096 NT" build-gpu/clgemm --iters 30 --trans NT --size 4096 --algo tensor_core --algo $W:PACKA=0 --algo $W:$R --algo $W:$R,INFLIGHT=1 --algo $W:SWAP=1,$R --algo $W:SWAP=1,$R,INFLIGHT=1
  run "$round new tf32 4096 NN" build-gpu/clgemm --iters 30 --size 4096 --algo tensor_core --algo $W:$R,INFLIGHT=1
  run "$round new tf32 8192 NT" build-gpu/clgemm --iters 10 --trans NT --size 8192 --algo tensor_core --algo $W:$R,INFLIGHT=1
  run "$round new tf32 4096x28672x4096 NT" build-gpu/clgemm --iters 10 --trans NT --size 4096x28672x4096 --algo tensor_core --algo $W:SWAP=1,$R --algo $W:SWAP=1,$R,INFLIGHT=1
  run "$round new tf32x3 4096 NT" build-gpu/clgemm --iters 20 --trans NT --size 4096 --algo tensor_core_tf32x3 --algo $W:BN=128,WGN=128,STAGES=3,SPLIT=1,$R,INFLIGHT=1 --algo $W:BN=128,WGN=128,STAGES=3,SPLIT=1,$R
  export CLGEMM_CACHE_DIR=/tmp/cold
  run "$round old tf32 4096 NT" /tmp/old/build/clgemm --iters 30 --trans NT --size 4096 --algo tensor_core
  run "$round old tf32x3 4096 NT" /tmp/old/build/clgemm --iters 20 --trans NT --size 4096 --algo tensor_core_tf32x3
done
echo "== test_bitwise (quick) on the GPU"
CLGEMM_TEST_DEVICE=nvidia timeout 200 build-gpu/tests/test_bitwise 2>&1 | grep -E "FAIL|INFLIGHT|SETMAXNREG|^ok$" | head -20
python3 bench/cublas.py tf32:4096:NT tf32:4096 tf32:8192:NT tf32:4096x28672x4096:NT fp32:4096:NT 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
