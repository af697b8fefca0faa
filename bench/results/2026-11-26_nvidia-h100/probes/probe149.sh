#!/usr/bin/env bash
# Probe 149 (301b17f): with MAXNREG, step 7 forms that fit more groups per SM at fp32 M = 128
# N T (the Llama shapes; auto's rule is the 128 x 128 tile, 136 registers in the in-place
# build, split ~1 group per CU) and at the N T batches: capped, more slices, 64-row and
# 64-column tiles.  CLBlast in the same command; every run verified.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe149.txt
runb() { local tag=$1 sz=$2 tr=$3 b=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 280 build-gpu/clgemm --device nvidia --trans $tr --size $sz --batch $b --iters 40 --format json -q "${a[@]}" 2>>$OUT/probe149.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' $tag $sz $tr b$b || echo "$tag $sz $tr b$b: no JSON"; }
R=warp_tiled:READT=1
M128=(auto $R,SPLITK=8 $R,SPLITK=8,MAXNREG=128 $R,SPLITK=16,MAXNREG=128 $R,BM=64,WM=64,WN=32,SPLITK=4,MAXNREG=128
      $R,BM=64,WM=64,WN=32,SPLITK=8,MAXNREG=128 $R,BN=64,SPLITK=4,MAXNREG=128 $R,BN=64,SPLITK=8,MAXNREG=128)
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do
  runb $round 128x4096x4096 NT 1 "${M128[@]}"
  runb $round 128x4096x14336 NT 1 "${M128[@]}"
  runb $round 128x28672x4096 NT 1 auto $R,MAXNREG=128 $R,SPLITK=2,MAXNREG=128 $R,BM=64,WM=64,WN=32,MAXNREG=128 $R,BN=64,MAXNREG=128 $R,BN=64,SPLITK=2,MAXNREG=128
  W=warp_tiled:READT=1,PREFETCH=1,BK=16,CLAMP=1,MAXNREG=128
  runb $round 128x128x64 NT 512 auto $W,BM=64,WM=64,WN=32 $W,BN=64 $W,BM=64,WM=64,WN=32,PREFETCH=0 $W,WM=64,WN=32,BK=8
  runb $round 512x512x64 NT 64 auto $W,BM=64,WM=64,WN=32 $W,BN=64 $W,BM=64,WM=64,WN=32,PREFETCH=0 $W,WM=64,WN=32,BK=8
done
} > $P 2>&1
tail -3 $P
