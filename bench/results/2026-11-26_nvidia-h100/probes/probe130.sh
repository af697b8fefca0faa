#!/usr/bin/env bash
# Probe 130: probe129's losing widths (N = 6144, 11008) and a few winners again, with the new
# set at WG=128 (groups half as wide: 4 per SM, finer waves) and other split counts.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe130.txt
{
cat .gpu/commit
CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 300 build-gpu/clgemm --device nvidia --size 16x4096x4096 --trans NT --no-baseline --iters 3 --algo skinny:WG=128,KT=16,RN=4,UNROLL=1,AL=512,BM=16 --algo skinny:WG=128,KT=16,RN=4,UNROLL=1,AL=512,BM=16,SPLITK=2 2>&1 | grep -E 'Used|spill' | head
for round in 1 2; do
for s in 16x4096x4096 16x6144x4096 8x11008x4096 16x11008x4096 16x28672x4096 16x4096x14336 12x3072x4096; do
  A="--algo auto"
  for k in 1 2 3 4 5; do A="$A --algo skinny:WG=256,KT=16,RN=4,UNROLL=1,AL=512,BM=16,SPLITK=$k --algo skinny:WG=128,KT=16,RN=4,UNROLL=1,AL=512,BM=16,SPLITK=$k"; done
  timeout 200 build-gpu/clgemm --device nvidia --size $s --trans NT --no-baseline --iters 100 --format json -q $A 2>>$OUT/probe130.err | python3 -c "
import json,sys
M,N,K=map(int,'$s'.split('x'))
for r in json.load(sys.stdin)['results'][0]['rows']:
    ms=r.get('ms_median') or 0
    print('$round', '$s', r['algorithm'], r['status'], ms, r.get('ms_min'), '%.0f GB/s' % ((N*K+M*K+M*N)*4/ms/1e6 if ms else 0))"
done; done
python3 bench/cublas.py fp32:16x4096x4096:NT fp32:16x6144x4096:NT fp32:16x4096x14336:NT fp32:16x28672x4096:NT fp32:12x3072x4096:NT fp32:16x5120x5120:NT fp32:8x11008x4096:NT fp32:16x2048x8192:NT fp32:16x14336x4096:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -3 $P
