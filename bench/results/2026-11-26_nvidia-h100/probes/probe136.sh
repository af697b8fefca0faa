#!/usr/bin/env bash
# Probe 136: the new fp32 N N M <= 16 rule (auto: WG=512,KT=32,UNROLL=2,AL=512, split_per_cu 1.0)
# against the former one (WG=512,KT=64,UNROLL=2, unsplit) at widths and M nobody tuned for, two
# interleaved rounds; what auto chose.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe136.txt
{
cat .gpu/commit
build-gpu/clgemm --device nvidia --algo list --size 16x4096x4096 --trans NN 2>&1 | grep -i "auto" | head -3
for round in 1 2; do
for s in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096 16x5120x5120 12x3072x4096 16x11008x4096 16x2048x8192 8x4096x4096 4x4096x4096 2x4096x4096 4x28672x4096 8x6144x4096; do
  timeout 100 build-gpu/clgemm --device nvidia --size $s --trans NN --no-baseline --iters 60 --format json -q --algo auto --algo skinny:WG=512,KT=64,UNROLL=2,BM=16 2>>$OUT/probe136.err | python3 -c "
import json,sys
M,N,K=map(int,'$s'.split('x'))
for r in json.load(sys.stdin)['results'][0]['rows']:
    ms=r.get('ms_median') or 0
    print('$round', '$s', r['algorithm'], r['status'], ms, r.get('ms_min'), '%.0f GB/s' % ((N*K+M*K+M*N)*4/ms/1e6 if ms else 0), (r.get('note') or r.get('chosen') or '')[:90])"
done; done
} > $P 2>&1
tail -2 $P
