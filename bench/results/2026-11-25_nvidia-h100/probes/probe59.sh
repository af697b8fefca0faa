#!/usr/bin/env bash
# Probe 59 (after bench/device_session.sh has built build-gpu in the same command): the
# session's start (d62b894, .gpu/old.tar.gz from git archive) against this tree, interleaved
# three times, at step 11's M = 1 rules (whose loop the AL change restructured: does M = 1
# lose anything?) and at the M <= 16 Llama shapes; again after probe57, with the AL=0 loop
# restored to its form before AL; and probe59 again with the split kernel as probe56 ran it
# (one slice now gets scratch from the host instead of a test in the stores).
source .gpu/setup.sh
P=$OUT/probe59.txt
mkdir -p /tmp/old && tar -C /tmp/old -xzf .gpu/old.tar.gz
(cd /tmp/old && meson setup build --buildtype=release >/dev/null && meson compile -C build >/dev/null) || { echo "old build failed" > $P; exit 1; }
{
for rep in 1 2 3; do
  for tree in old new; do
    bin=build-gpu/clgemm; [ $tree = old ] && bin=/tmp/old/build/clgemm
    for job in 1x6144x4096:f32:auto 1x4096x4096:f32:auto 1x28672x4096:f32:auto 1x6144x4096:bf16:tensor_core \
               1x4096x4096:f16:tensor_core 1x4096x14336:bf16:tensor_core 16x6144x4096:f32:auto 16x4096x14336:f32:auto 16x4096x4096:f32:auto 16x28672x4096:f32:auto; do
      IFS=: read -r s dt algo <<< "$job"
      out=; [ $dt != f32 ] && out="--out $dt"
      timeout 60 $bin --device nvidia --size $s --trans NT --dtype $dt $out --no-baseline --iters 100 --format json -q --algo $algo 2>/dev/null | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results'][0]['rows']:
    print('$rep $tree $s $dt', r['algorithm'], r['status'], r.get('ms_median'), r.get('ms_min'), r.get('note','')[:90])"
    done
  done
done
} > $P 2>&1
tail -3 $P
