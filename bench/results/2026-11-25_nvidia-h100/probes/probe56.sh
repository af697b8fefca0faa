#!/usr/bin/env bash
# Probe 56 (after bench/device_session.sh has built build-gpu in the same command): the new
# fp32 M <= 16 rule of step 11 (AL=512, KT=8, split in one launch to about 2.5 groups per SM)
# as auto chooses it at shapes nobody tuned for, beside the splits around its choice, and the
# rules whose split now runs in one launch (B stored K x N at M = 1); cuBLAS fp32 alike.
source .gpu/setup.sh
P=$OUT/probe56.txt
R=WG=256,KT=8,RN=2,UNROLL=2,AL=512,BM=16
{
for job in 16x6144x4096:NT:2,3,4 16x5120x5120:NT:3,4,5 16x4096x4096:NT:4,5,6 16x4096x14336:NT:4,5,6 \
           8x11008x4096:NT:2,3 12x3072x4096:NT:3,4,6 4x4096x4096:NT: 2x8192x8192:NT: \
           1x4096x4096:NN: 1x4096x14336:NN: 16x4096x4096:NN:; do
  IFS=: read -r s t splits <<< "$job"
  A="--algo auto"; for k in ${splits//,/ }; do A="$A --algo skinny:$R,SPLITK=$k"; done
  timeout 60 build-gpu/clgemm --device nvidia --size $s --trans $t --no-baseline --iters 60 --format json -q $A 2>/dev/null | python3 -c "
import json,sys
M,N,K=map(int,'$s'.split('x'))
for r in json.load(sys.stdin)['results'][0]['rows']:
    ms=r.get('ms_median') or 0
    print('$s $t', r['algorithm'], r['status'], ms, '%.0f GB/s' % ((N*K+M*K+M*N)*4/ms/1e6 if ms else 0), r.get('note','')[:110])"
done
python3 bench/cublas.py fp32:16x6144x4096:NT:r60 fp32:16x5120x5120:NT:r60 fp32:16x4096x4096:NT:r60 fp32:16x4096x14336:NT:r60 fp32:8x11008x4096:NT:r60 fp32:12x3072x4096:NT:r60 fp32:4x4096x4096:NT:r60 fp32:2x8192x8192:NT:r60 fp32:1x4096x4096:NN:r60 fp32:1x4096x14336:NN:r60 fp32:16x4096x4096:NN:r60 >/dev/null
} > $P 2>&1
tail -3 $P
