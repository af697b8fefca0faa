#!/usr/bin/env bash
# Probe 110: where a small step 10 call's time goes (the 16-bit batch gap to bmm is the start
# of a call, probe103).  One problem and 512 of 128x128x64 f16 (C f16): the rule, its stores
# staged or direct instead of the copy engine's, 64-row tiles, a shorter K; the smallest
# OpenCL kernels beside.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe110.txt
run() { local sz=$1 b=$2 extra=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --size $sz --batch $b --iters 200 --format json $extra "${a[@]}" 2>>$OUT/probe110.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$sz b$b" || echo "$sz $b : no JSON"; }
W=wgmma_tma:BN=128,WGN=128
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
run 16x16x16 1 "" coalescing naive
for b in 1 512; do
  run 128x128x64 $b "--dtype f16 --out f16" tensor_core $W,STAGES=4,PERSIST=1,TSTORE=1 $W,STAGES=4,PERSIST=1,TSTORE=0 \
    $W,STAGES=4,PERSIST=1,TSTORE=0,STAGED=0 $W,STAGES=2,TSTORE=1 $W,STAGES=2,TSTORE=0,STAGED=0 \
    wgmma_tma:BM=64,BN=64,WGN=64,STAGES=2,TSTORE=0,STAGED=0 tensor_core
  run 128x128x16 $b "--dtype f16 --out f16" tensor_core $W,STAGES=2,TSTORE=0,STAGED=0
  run 64x64x16 $b "--dtype f16 --out f16" tensor_core wgmma_tma:BM=64,BN=64,WGN=64,STAGES=2,TSTORE=0,STAGED=0
done
python3 bench/cublas.py f16:16x16x16:r200 f16:128x128x64:r200 f16:128x128x16:r200 f16:64x64x16:r200 f16:128x128x64:b512:r200 f16:128x128x16:b512:r200 2>&1 >/dev/null | grep '^cublas'
} > $P 2>&1
tail -3 $P
