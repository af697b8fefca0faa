#!/usr/bin/env bash
# Probe 53: fp32 step 7 (auto at 4096^3) with a 16-bit C: HEAD's rounding (c0) against PTX's
# cvt.rn pair conversion in gemm_c_put4 (c1, .gpu/mkvar9.py); registers, and times
# interleaved three times, every run verified.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe53.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
T=BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16,CLAMP=0
{
for v in c0 c1; do
  for o in bf16 f16; do
    echo "-- regs $v $o: $(CLGEMM_KERNEL_DIR=$PWD/.gpu/var9/$v CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1024 --out $o --no-baseline --iters 3 --algo warp_tiled:$T 2>&1 | grep -E 'Used|FAIL' | head -2 | tr '\n' ' ')"
  done
done
for rep in 1 2 3; do
  for v in c0 c1; do
    export CLGEMM_KERNEL_DIR=$PWD/.gpu/var9/$v CLGEMM_CACHE_DIR=/tmp/c9_$v
    for o in f32 bf16 f16; do
      timeout 60 build-gpu/clgemm --device nvidia --size 4096 --out $o --no-baseline --iters 60 --format json -q --algo auto 2>/dev/null | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results'][0]['rows']:
    print('$rep $v $o', r['algorithm'], r['status'], r.get('ms_median'), r.get('gflops'))"
    done
  done
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
