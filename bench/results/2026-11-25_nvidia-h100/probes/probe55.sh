#!/usr/bin/env bash
# Probe 55: step 11 at M <= 16 (fp32, B stored N x K) with the split of K in one launch
# (cl/skinny_ksplit.h): the shipped rule (auto, whose SPLITK now runs in one launch) against
# the best sets of probe55 (PIPE=1; KT=8 with A staged in local memory, AL) split 1 to 8 ways;
# registers; cuBLAS fp32 in the same command.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe55.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
V="WG=256,KT=32,RN=8,UNROLL=1 WG=256,KT=32,RN=8,UNROLL=1,SPLITK=2 WG=256,KT=32,RN=8,UNROLL=1,SPLITK=4
WG=256,KT=32,RN=4,UNROLL=2,PIPE=1 WG=256,KT=32,RN=4,UNROLL=2,PIPE=1,SPLITK=2 WG=256,KT=32,RN=8,UNROLL=1,PIPE=1,SPLITK=2
WG=256,KT=8,RN=2,UNROLL=2,AL=512 WG=256,KT=8,RN=2,UNROLL=2,AL=512,SPLITK=2 WG=256,KT=8,RN=2,UNROLL=2,AL=512,SPLITK=4
WG=256,KT=8,RN=2,UNROLL=2,AL=512,SPLITK=8 WG=256,KT=8,RN=2,UNROLL=4,AL=512,SPLITK=2 WG=256,KT=8,RN=2,UNROLL=4,AL=512,SPLITK=4
WG=256,KT=8,RN=4,UNROLL=1,AL=512,SPLITK=2 WG=256,KT=8,RN=4,UNROLL=1,AL=512,SPLITK=4 WG=256,KT=16,RN=4,UNROLL=2,AL=512,SPLITK=2
WG=256,KT=8,RN=2,UNROLL=2,AL=1024,SPLITK=2 WG=256,KT=8,RN=2,UNROLL=2,AL=1024,SPLITK=4 WG=256,KT=8,RN=2,UNROLL=2,AL=256,SPLITK=4
WG=128,KT=8,RN=2,UNROLL=2,AL=512,SPLITK=2 WG=128,KT=8,RN=2,UNROLL=4,AL=512,SPLITK=2"
{
echo "== registers (16x4096x4096)"
A=""; for v in $V; do A="$A --algo skinny:$v,BM=16"; done
CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 200 build-gpu/clgemm --device nvidia --size 16x4096x4096 --trans NT --no-baseline --iters 3 $A 2>&1 | grep -E 'Used|FAIL|rror' | head -60
for s in 16x4096x4096 16x6144x4096 16x28672x4096 16x4096x14336 16x5120x5120 8x11008x4096 4x4096x4096; do
  echo "== $s"
  timeout 100 build-gpu/clgemm --device nvidia --size $s --trans NT --no-baseline --iters 60 --format json -q --algo auto $A 2>/dev/null | python3 -c "
import json,sys
M,N,K=map(int,'$s'.split('x'))
for r in json.load(sys.stdin)['results'][0]['rows']:
    ms=r.get('ms_median') or 0
    print('$s', r['algorithm'], r['status'], ms, r.get('ms_min'), '%.0f GB/s' % ((N*K+M*K+M*N)*4/ms/1e6 if ms else 0), r.get('note','')[:80])"
done
echo "== cuBLAS"
python3 bench/cublas.py fp32:16x4096x4096:NT:r60 fp32:16x6144x4096:NT:r60 fp32:16x28672x4096:NT:r60 fp32:16x4096x14336:NT:r60 fp32:16x5120x5120:NT:r60 fp32:8x11008x4096:NT:r60 fp32:4x4096x4096:NT:r60 | python3 -c "
import json,sys
d=json.load(sys.stdin)
for j in d.get('rows',[]): print(j)
print(d.get('reason',''))"
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
