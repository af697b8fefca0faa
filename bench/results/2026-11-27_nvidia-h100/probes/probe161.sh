#!/usr/bin/env bash
# Probe 161: TF32's rounding warpgroup (ROUNDER=1), which the M <= 512 rules run: is it what
# bounds them?  The working tree (the rounder loads its whole share of a slot before writing
# any back) against HEAD built beside it and a timing-only tree whose rounder rounds nothing
# (--no-check: its sums are truncated), three interleaved rounds; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
rm -rf /tmp/nr && mkdir -p /tmp/nr && tar cf - --exclude=./build-gpu --exclude=./.gpu --exclude=./build . | tar xf - -C /tmp/nr && sed -i 's/TMA_ROUND_SHARE(s, tid - (PRODUCER0 + 32));/(void)0;/' /tmp/nr/cl/mma/tma_round.h && grep -c "(void)0;" /tmp/nr/cl/mma/tma_round.h && (cd /tmp/nr && meson setup build --buildtype=release > /tmp/bn.log 2>&1 && meson compile -C build >> /tmp/bn.log 2>&1) || { tail -20 /tmp/bn.log; exit 1; }
P=$OUT/probe161.txt
run() { local tag=$1 exe=$2; shift 2
  timeout 100 $exe --device nvidia --no-baseline --format json -q --iters 100 "$@" 2>>$OUT/probe161.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2 r3; do
  for b in new old nr; do
    exe=build-gpu/clgemm; x=
    [ $b = old ] && exe=/tmp/old/build/clgemm
    [ $b = nr ] && exe=/tmp/nr/build/clgemm && x=--no-check
    export CLGEMM_CACHE_DIR=/tmp/c$b
    for sz in 128x4096x4096 128x6144x4096 128x4096x14336 16x4096x4096 512x4096x4096; do
      run "$round $b" $exe $x --trans NT --size $sz --algo tensor_core
    done
    run "$round $b" $exe $x --trans NN --size 16x4096x4096 --algo tensor_core
  done
done
python3 bench/cublas.py tf32:128x4096x4096:NT tf32:128x6144x4096:NT tf32:128x4096x14336:NT tf32:16x4096x4096:NT tf32:512x4096x4096:NT tf32:16x4096x4096:NN 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
