#!/usr/bin/env bash
# Probe 120: warp_tiled_async (194-217 registers as ptxas chooses: one group per SM) told to
# fit two groups by PTX directives patched into clgemm's cached PTX: `.maxnreg 128` (or 168),
# or `.maxntid 256,1,1` + `.minnctapersm 2`.  Every run verified.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe120.txt
W=warp_tiled_async
CASES=("4096 NN 1 auto $W:KU=1 $W:KU=2 $W:KU=1,WM=64,WN=32" "4096 NT 1 auto $W:KU=1 $W:KU=2 $W:KU=1,WM=64,WN=32"
  "128x4096x4096 NT 1 auto $W:KU=1,SPLITK=4 $W:KU=1,SPLITK=8" "128x28672x4096 NT 1 auto $W:KU=1,SPLITK=4 $W:KU=1,SPLITK=8"
  "128x4096x14336 NT 1 auto $W:KU=1,SPLITK=4 $W:KU=1,SPLITK=8" "128x128x64 NT 512 auto $W:KU=1" "512x512x64 NT 64 auto $W:KU=1")
run() { local label=$1 sz=$2 tr=$3 b=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --batch $b --iters $ITERS --format json -q "${a[@]}" 2>>$OUT/probe120.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $label $sz $tr b$b || echo "$sz $tr : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
export CLGEMM_CACHE_DIR=/tmp/cw ITERS=1
for c in "${CASES[@]}"; do run warm $c > /dev/null; done
ls /tmp/cw | wc -l
python3 .gpu/patch_cache_async.py /tmp/cw /tmp/cm128 ".maxnreg 128"
python3 .gpu/patch_cache_async.py /tmp/cw /tmp/cm168 ".maxnreg 168"
python3 .gpu/patch_cache_async.py /tmp/cw /tmp/cl2 ".maxntid 256, 1, 1;.minnctapersm 2"
TD=$(python3 -c "import triton, os; print(os.path.dirname(triton.__file__))")/backends/nvidia/bin
for d in cw cm128 cl2; do
  for f in /tmp/$d/*.bin; do
    python3 - "$f" > /tmp/x.ptx <<'PY'
import sys, struct
b = open(sys.argv[1], 'rb').read(); k = struct.unpack('<Q', b[8:16])[0]
p = b[16 + k + 16:].rstrip(b'\0').decode(errors='replace')
sys.stdout.write(p.replace('.version 9.0', '.version 8.7'))
PY
    grep -q "gemm_warp_tiled_async" /tmp/x.ptx && echo "$d $(basename $f): $($TD/ptxas -arch=sm_90 -v -o /tmp/x.cubin /tmp/x.ptx 2>&1 | grep -E 'Used|spill' | tr '\n' ' ')"
  done
done
export ITERS=30
for d in cw cm128 cm168 cl2; do
  export CLGEMM_CACHE_DIR=/tmp/$d
  for c in "${CASES[@]}"; do run $d $c; done
done
} > $P 2>&1
tail -5 $P
