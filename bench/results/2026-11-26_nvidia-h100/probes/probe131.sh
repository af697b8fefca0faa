#!/usr/bin/env bash
# Probe 131: M <= 4 (the former rule KT=32,RN=8,UNROLL=1,BM=16) against the new M <= 16 set.
source .gpu/setup.sh
P=$OUT/probe131.txt
N4="skinny:WG=256,KT=16,RN=4,UNROLL=1,AL=512,BM=16"
{
cat .gpu/commit
for round in 1 2; do
for c in 4x4096x4096:4 2x4096x4096:4 4x28672x4096:1 4x4096x14336:4 3x6144x4096:2; do
  s=${c%%:*} k=${c##*:}
  timeout 100 build-gpu/clgemm --device nvidia --size $s --trans NT --no-baseline --iters 100 --format json -q --algo auto --algo $N4,SPLITK=$k --algo $N4,SPLITK=$((k*2)) 2>>$OUT/probe131.err | python3 -c "
import json,sys
M,N,K=map(int,'$s'.split('x'))
for r in json.load(sys.stdin)['results'][0]['rows']:
    ms=r.get('ms_median') or 0
    print('$round', '$s', r['algorithm'], r['status'], ms, r.get('ms_min'), '%.0f GB/s' % ((N*K+M*K+M*N)*4/ms/1e6 if ms else 0))"
done; done
} > $P 2>&1
