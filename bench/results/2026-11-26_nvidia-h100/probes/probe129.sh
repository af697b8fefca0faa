#!/usr/bin/env bash
# Probe 129: the fp32 M <= 16 N T rule (auto: KT=8,RN=2,UNROLL=2,AL=512, 2.7 groups per SM)
# against KT=16,RN=4,UNROLL=1,AL=512 split as split_per_cu 1.75 would (lround(231 / tiles),
# tiles = N / 64), at the Llama shapes (warm and cold L2) and widths nobody tuned for, three
# interleaved rounds; cuBLAS fp32 after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe129.txt
N4="skinny:WG=256,KT=16,RN=4,UNROLL=1,AL=512,BM=16"
{
cat .gpu/commit
for round in 1 2 3; do
for c in 16x4096x4096:4 16x6144x4096:2 16x4096x14336:4 16x28672x4096:1 12x3072x4096:5 16x5120x5120:3 8x11008x4096:1 16x11008x4096:1 10x4096x4096:4 16x14336x4096:1 16x2048x8192:7 5x4096x4096:4; do
  s=${c%%:*} k=${c##*:}
  for cold in "" "--cold-l2"; do
    [ -n "$cold" ] && [ $round -gt 1 ] && continue
    timeout 200 build-gpu/clgemm --device nvidia --size $s --trans NT --no-baseline --iters 100 $cold --format json -q --algo auto --algo $N4,SPLITK=$k 2>>$OUT/probe129.err | python3 -c "
import json,sys
M,N,K=map(int,'$s'.split('x'))
for r in json.load(sys.stdin)['results'][0]['rows']:
    ms=r.get('ms_median') or 0
    print('$round', '$s', '${cold:-warm}', r['algorithm'], r['status'], ms, r.get('ms_min'), '%.0f GB/s' % ((N*K+M*K+M*N)*4/ms/1e6 if ms else 0))"
  done
done; done
python3 bench/cublas.py f32:16x4096x4096:NT f32:16x6144x4096:NT f32:16x4096x14336:NT f32:16x28672x4096:NT f32:12x3072x4096:NT f32:16x5120x5120:NT f32:8x11008x4096:NT f32:16x2048x8192:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -3 $P
