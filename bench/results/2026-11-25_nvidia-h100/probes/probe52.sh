#!/usr/bin/env bash
# Probe 52: step 7's READT=1 builds (136 registers plain, more batched, as the split runs them)
# told to fit two groups of 256 per SM by PTX directives patched into clgemm's cached PTX
# (.gpu/patch_cache.py): `.maxnreg 128`, or `.maxntid 256,1,1` + `.minnctapersm 2`.  Every run
# verified.  ptxas -v (triton's, which matches the driver's counts) on the patched PTX.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe52.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
T=BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16,CLAMP=0
W=warp_tiled:$T,READT=1
CASES=("4096 NN warp_tiled:$T" "4096 NT $W"
  "128x4096x4096 NT $W,SPLITK=4 $W,SPLITK=8 $W,SPLITK=16 auto"
  "128x6144x4096 NT $W,SPLITK=4 $W,SPLITK=8 auto"
  "128x28672x4096 NT $W,SPLITK=2 $W,SPLITK=4 $W,SPLITK=8 auto"
  "128x4096x14336 NT $W,SPLITK=4 $W,SPLITK=8 auto")
run() { # label size trans algos...
  local label=$1 size=$2 tr=$3; shift 3
  local args=(); for a in "$@"; do args+=(--algo "$a"); done
  timeout 120 build-gpu/clgemm --device nvidia --size $size --trans $tr --no-baseline --iters $ITERS --format json -q "${args[@]}" 2>/dev/null | python3 -c "
import json,sys
for r in json.load(sys.stdin)['results'][0]['rows']:
    print('$label', '$size', '$tr', r['algorithm'], r['status'], r.get('ms_median'), r.get('gflops'), r.get('params'))"
}
{
export CLGEMM_CACHE_DIR=/tmp/cw ITERS=1
for c in "${CASES[@]}"; do run warm $c > /dev/null; done
ls /tmp/cw | wc -l
python3 .gpu/patch_cache.py /tmp/cw /tmp/cm128 ".maxnreg 128"
python3 .gpu/patch_cache.py /tmp/cw /tmp/cl2 ".maxntid 256, 1, 1;.minnctapersm 2"
TD=$(python3 -c "import triton, os; print(os.path.dirname(triton.__file__))")/backends/nvidia/bin
for d in cw cm128 cl2; do
  for f in /tmp/$d/*.bin; do
    python3 - "$f" > /tmp/x.ptx <<'PY'
import sys, struct
b = open(sys.argv[1], 'rb').read(); k = struct.unpack('<Q', b[8:16])[0]
p = b[16 + k + 16:].rstrip(b'\0').decode(errors='replace')
sys.stdout.write(p.replace('.version 9.0', '.version 8.7'))
PY
    grep -q "gemm_warp_tiled" /tmp/x.ptx && echo "$d $(basename $f): $($TD/ptxas -arch=sm_90 -v -o /tmp/x.cubin /tmp/x.ptx 2>&1 | grep -E 'Used|spill' | tr '\n' ' ')"
  done
done
export ITERS=40
for rep in 1 2; do
for d in cw cm128 cl2; do
  export CLGEMM_CACHE_DIR=/tmp/$d
  for c in "${CASES[@]}"; do run "$d/$rep" $c; done
done
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
