#!/usr/bin/env bash
# Probe 135: step 11 at fp32 M = 16 with B stored K x N (N N): the rule (WG=512,KT=64,UNROLL=2, A
# through the cache) against A staged in local memory (AL) with fewer lanes per column, split
# 1-8 in one launch, at four Llama widths.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe135.txt
V="WG=512,KT=64,UNROLL=2 WG=256,KT=8,UNROLL=2,AL=512 WG=256,KT=16,UNROLL=1,AL=512 WG=256,KT=16,UNROLL=2,AL=512 WG=256,KT=32,UNROLL=2,AL=512 WG=512,KT=32,UNROLL=2,AL=512 WG=512,KT=64,UNROLL=2,AL=512"
{
cat .gpu/commit
for s in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096; do
  for v in $V; do
  A="--algo auto"; for k in 1 2 3 4 6 8; do A="$A --algo skinny:$v,BM=16,SPLITK=$k"; done
  timeout 200 build-gpu/clgemm --device nvidia --size $s --trans NN --no-baseline --iters 60 --format json -q $A 2>>$OUT/probe135.err | python3 -c "
import json,sys
M,N,K=map(int,'$s'.split('x'))
for r in json.load(sys.stdin)['results'][0]['rows']:
    ms=r.get('ms_median') or 0
    print('$s', r['algorithm'], r['status'], ms, r.get('ms_min'), '%.0f GB/s' % ((N*K+M*K+M*N)*4/ms/1e6 if ms else 0))"
  done
done
} > $P 2>&1
tail -2 $P
