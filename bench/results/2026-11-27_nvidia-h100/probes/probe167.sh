#!/usr/bin/env bash
# Probe 167: tensor_core and tensor_core_tf32x3 on fp32 data beyond the shape rules with the
# working tree's choice (A, or where N > M the swapped problem's A, rounded in registers with
# SETMAXNREG=1) against HEAD built beside it, at the sizes of the README and the Llama
# M = 4096 shapes, every transpose at 4096^3; two rounds; the choice's reason; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe167.txt
run() { local tag=$1 exe=$2; shift 2
  timeout 250 $exe --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe167.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for sz in 4096 4096x28672x4096 1000x3000x777; do
  build-gpu/clgemm --device nvidia --no-baseline --trans NT --size $sz --iters 2 --algo tensor_core --algo tensor_core_tf32x3 2>&1 | grep -iE "note|chose|rule|register" | head -4
done
for round in r1 r2; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    export CLGEMM_CACHE_DIR=/tmp/c$b
    for t in NN NT TN TT; do run "$round $b" $exe --iters 20 --trans $t --size 4096 --algo tensor_core; done
    run "$round $b" $exe --iters 20 --layout col --trans NT --size 4096 --algo tensor_core
    run "$round $b" $exe --iters 5 --trans NT --size 8192 --algo tensor_core
    run "$round $b" $exe --iters 5 --size 8192 --algo tensor_core
    for sz in 4096x28672x4096 4096x6144x4096 4096x4096x14336 2048 1000x3000x777; do
      run "$round $b" $exe --iters 10 --trans NT --size $sz --algo tensor_core; done
    run "$round $b" $exe --iters 10 --trans NT --size 4096 --algo tensor_core_tf32x3
    run "$round $b" $exe --iters 5 --trans NT --size 4096x28672x4096 --algo tensor_core_tf32x3
  done
done
python3 bench/cublas.py tf32:4096 tf32:4096:NT tf32:4096:TN tf32:4096:TT tf32:8192:NT tf32:8192 tf32:4096x28672x4096:NT tf32:4096x6144x4096:NT tf32:4096x4096x14336:NT tf32:2048:NT tf32:1000x3000x777:NT fp32:4096:NT fp32:4096x28672x4096:NT 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
