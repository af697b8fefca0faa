#!/usr/bin/env bash
# Probe 138: on an H200, the fp32 M <= 16 rules copied from the H100 (848a7ca: N T
# KT=16,RN=4,UNROLL=1,AL=512 at 1.75 groups per SM; N N WG=512,KT=32,UNROLL=2,AL=512 at 1.0)
# against the rules they replaced (N T KT=8,RN=2,UNROLL=2,AL=512 split as 2.7 gave; N N
# WG=512,KT=64,UNROLL=2 unsplit), two interleaved rounds.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe138.txt
run() { local s=$1 tr=$2; shift 2
  timeout 100 build-gpu/clgemm --device nvidia --size $s --trans $tr --no-baseline --iters 60 --format json -q "$@" 2>>$OUT/probe138.err | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results'][0]['rows']:
    print('$s $tr', r['algorithm'], r['status'], r.get('ms_median'), r.get('ms_min'), (r.get('note') or '')[:70])"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
OLD="skinny:WG=256,KT=8,RN=2,UNROLL=2,AL=512,BM=16"
for round in 1 2; do
  for c in 16x4096x4096:6 16x6144x4096:4 16x4096x14336:6 16x28672x4096:1 12x3072x4096:8 16x5120x5120:4; do
    s=${c%%:*} k=${c##*:}; run $s NT --algo auto --algo $OLD,SPLITK=$k; done
  for s in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096 8x4096x4096 4x4096x4096; do
    run $s NN --algo auto --algo skinny:WG=512,KT=64,UNROLL=2,BM=16; done
done
} > $P 2>&1
tail -3 $P
