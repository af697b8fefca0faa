#!/usr/bin/env bash
# Probe 128: step 11 at M = 16, fp32, B stored N x K: A staged in local memory (AL) with more
# columns per work-item (RN 4, 8: each vector of A read from local memory meets RN vectors of
# B instead of 2) and KT 8 / 16, split 1-6 in one launch; registers; cold L2 for the best.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe128.txt
V="KT=8,RN=2,UNROLL=2,AL=512 KT=8,RN=4,UNROLL=1,AL=512 KT=8,RN=4,UNROLL=2,AL=512 KT=8,RN=8,UNROLL=1,AL=512
KT=16,RN=4,UNROLL=1,AL=512 KT=16,RN=4,UNROLL=2,AL=512 KT=16,RN=8,UNROLL=1,AL=512 KT=8,RN=4,UNROLL=1,AL=1024
KT=4,RN=4,UNROLL=1,AL=512 KT=8,RN=4,UNROLL=1,AL=256"
{
cat .gpu/commit
echo "== registers (16x4096x4096)"
A=""; for v in $V; do A="$A --algo skinny:WG=256,$v,BM=16 --algo skinny:WG=256,$v,BM=16,SPLITK=4"; done
CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 300 build-gpu/clgemm --device nvidia --size 16x4096x4096 --trans NT --no-baseline --iters 3 $A 2>&1 | grep -E 'Used|spill|FAIL|rror' | grep -v " 0 bytes spill" | head -60
for s in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096; do
  for v in $V; do
  A="--algo auto"; for k in 1 2 3 4 6 8; do A="$A --algo skinny:WG=256,$v,BM=16,SPLITK=$k"; done
  timeout 200 build-gpu/clgemm --device nvidia --size $s --trans NT --no-baseline --iters 60 --format json -q $A 2>>$OUT/probe128.err | python3 -c "
import json,sys
M,N,K=map(int,'$s'.split('x'))
for r in json.load(sys.stdin)['results'][0]['rows']:
    ms=r.get('ms_median') or 0
    print('$s', r['algorithm'], r['status'], ms, r.get('ms_min'), '%.0f GB/s' % ((N*K+M*K+M*N)*4/ms/1e6 if ms else 0))"
  done
done
} > $P 2>&1
tail -3 $P
