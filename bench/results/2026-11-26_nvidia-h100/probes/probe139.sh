#!/usr/bin/env bash
# Probe 139: step 11 at 16-bit M = 1, B stored N x K (bf16): the rule (WG=256,KT=128,RN=4,UNROLL=2,
# unsplit) against more loads in flight (UNROLL 4), other lane counts and columns per work-item,
# and splits, warm and (for the weights beyond the L2) cold.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe139.txt
V="WG=256,KT=128,RN=4,UNROLL=2 WG=256,KT=128,RN=4,UNROLL=4 WG=256,KT=64,RN=4,UNROLL=4 WG=256,KT=128,RN=2,UNROLL=4 WG=256,KT=256,RN=2,UNROLL=2 WG=512,KT=128,RN=4,UNROLL=2 WG=128,KT=64,RN=4,UNROLL=4 WG=256,KT=32,RN=8,UNROLL=2"
{
cat .gpu/commit
for s in 1x4096x4096 1x6144x4096 1x4096x14336 1x28672x4096; do
  for cold in "" "--cold-l2"; do
    case $s in 1x4096x4096|1x6144x4096) [ -n "$cold" ] && continue;; esac
    A="--algo tensor_core"; for v in $V; do for k in 1 2; do A="$A --algo skinny:$v,BM=1,SPLITK=$k"; done; done
    timeout 200 build-gpu/clgemm --device nvidia --size $s --trans NT --dtype bf16 --out bf16 --no-baseline --iters 100 $cold --format json -q $A 2>>$OUT/probe139.err | python3 -c "
import json,sys
M,N,K=map(int,'$s'.split('x'))
for r in json.load(sys.stdin)['results'][0]['rows']:
    ms=r.get('ms_median') or 0
    print('$s', '${cold:-warm}', r['algorithm'], r['status'], ms, r.get('ms_min'), '%.0f GB/s' % ((N*K+M*K+M*N)*2/ms/1e6 if ms else 0))"
  done
done
} > $P 2>&1
tail -2 $P
