#!/usr/bin/env bash
# Probe 169: fp32 auto at M = 128 (N T), the rule (step 7, READT=1, split into ~1 group per
# CU) against the same capped at 128 registers (two groups per SM) with more slices, the
# swapped 128 x 64 form of the M <= 64 rule, and 64-row tiles; two rounds; registers from the
# build logs; cuBLAS fp32 after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe169.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 "$@" 2>>$OUT/probe169.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag" || echo "$tag $*: no JSON"; }
W=warp_tiled
R=$W:READT=1
C=$W:READT=1,MAXNREG=128
S=$W:SWAP=1,READT=0,BM=128,BN=64,BK=8,TM=8,TN=8,WM=64,WN=32
S2=$W:SWAP=1,READT=0
T=$W:BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16,READT=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
# registers of each form, from NVIDIA's build log
for f in $R $C $S $S2 $T; do
  printf '%s: ' "$f"
  CLGEMM_CACHE_DIR=/tmp/cv CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose build-gpu/clgemm --device nvidia --no-baseline -q --iters 3 --trans NT --size 128x4096x4096 --algo $f,SPLITK=4 2>&1 | grep -Eo "Used [0-9]+ registers|[0-9]+ bytes spill stores" | sort -u | tr '\n' ' '; echo
done
for round in r1 r2; do
  for sz in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336 100x5120x5120 96x3000x1000; do
    run "$round $sz" --trans NT --size $sz --algo auto \
      --algo $R,SPLITK=4 --algo $R,SPLITK=8 \
      --algo $C,SPLITK=4 --algo $C,SPLITK=8 --algo $C,SPLITK=16 \
      --algo $S,SPLITK=2 --algo $S,SPLITK=4 --algo $S,SPLITK=8 \
      --algo $S2,SPLITK=4 --algo $T,SPLITK=2 --algo $T,SPLITK=4
  done
done
python3 bench/cublas.py fp32:128x4096x4096:NT fp32:128x6144x4096:NT fp32:128x28672x4096:NT fp32:128x4096x14336:NT fp32:100x5120x5120:NT fp32:96x3000x1000:NT 2>&1 | grep cublas
} > $P 2>&1
tail -5 $P
