#!/usr/bin/env bash
# Probe 47: 16-bit tensor_core at M = 16 and 128 (X W^T) with the rules' tiles split over K:
# the M <= 16 rule (64 x 16 swapped tiles) and the M <= 128 rule (64 x 128) launch 64 groups at
# N = 4096 and 96 at 6144 on 132 SMs, unsplit.  SPLITK 1..4 per shape, warm; M = 16 cold too.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe47.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
run() { # label size dtype extra algos...
  local label=$1 size=$2 dt=$3 extra=$4; shift 4
  local args=(); for a in "$@"; do args+=(--algo "$a"); done
  timeout 120 build-gpu/clgemm --device nvidia --size $size --trans NT --dtype $dt --out $dt --no-baseline --iters 100 $extra --format json -q "${args[@]}" 2>/dev/null | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results'][0]['rows']:
    print('$label', '$size', '$dt', r['algorithm'], r['status'], r.get('ms_median'), r.get('gflops'), r.get('gbps'))"
}
R16=wgmma_tma:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=1
R128=wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1
{
for rep in 1 2; do
for dt in bf16 f16; do
  for nk in 4096x4096 6144x4096 28672x4096 4096x14336; do
    run "warm$rep" 16x$nk $dt "" tensor_core $R16 $R16,SPLITK=2 $R16,SPLITK=3 $R16,SPLITK=4
    run "cold$rep" 16x$nk $dt "--cold-l2" tensor_core $R16 $R16,SPLITK=2 $R16,SPLITK=4
    run "warm$rep" 128x$nk $dt "" tensor_core $R128 $R128,SPLITK=2 $R128,SPLITK=3 $R128,SPLITK=4
  done
done
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
