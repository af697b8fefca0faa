#!/usr/bin/env bash
# Probe 148 (the working tree: MAXNREG, the register cap written into step 7's PTX; GELU by
# native_exp2 / native_recip).  (A) fp32 N T and T N batches: the rule (PREFETCH=0) against the
# pipelined form capped at 128 registers, CLBlast in the same command, cuBLAS bmm after; N N
# beside.  (B) the cap at fp32 M = 128 N T and 4096^3 N T.  (C) GELU over every float of
# 2^-20 <= |x| < 2^10 on the GPU (bench/probes/gelu_accuracy.c), new and HEAD's epilogue, and
# which PTX the new one became.  (D) the device's tests.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe148.txt
W=warp_tiled:READT=1,PREFETCH=1,BK=16
runb() { local tag=$1 sz=$2 tr=$3 b=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --trans $tr --size $sz --batch $b --iters 50 --format json -q "${a[@]}" 2>>$OUT/probe148.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' $tag $sz $tr b$b || echo "$tag $sz $tr b$b: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
echo "== A: batches"
for round in r1 r2; do
  for tr in NT TN; do
    runb $round 128x128x64 $tr 512 auto $W,WM=64,WN=32,CLAMP=1,MAXNREG=128 $W,WM=64,WN=32,MAXNREG=128 $W,MAXNREG=128 $W,WM=64,WN=32,CLAMP=1
    runb $round 512x512x64 $tr 64 auto $W,WM=64,WN=32,CLAMP=1,MAXNREG=128 $W,WM=64,WN=32,MAXNREG=128 $W,MAXNREG=128 $W,WM=64,WN=32,CLAMP=1
  done
  runb $round 128x128x64 NN 512 auto
  runb $round 512x512x64 NN 64 auto
done
python3 bench/cublas.py f32:128x128x64:NT:b512 f32:512x512x64:NT:b64 f32:128x128x64:TN:b512 f32:512x512x64:TN:b64 f32:128x128x64:NN:b512 f32:512x512x64:NN:b64 2>&1 | grep -v "^{" | tail -8
echo "== B: M = 128 and 4096^3"
runb r1 128x4096x4096 NT 1 auto $W,SPLITK=4,MAXNREG=128 $W,SPLITK=4,WM=64,WN=32,MAXNREG=128
runb r1 4096 NT 1 auto $W,MAXNREG=128
echo "== C: GELU"
gcc -O2 -o /tmp/gelu_accuracy bench/probes/gelu_accuracy.c $(pkg-config --cflags --libs OpenCL) -lm
mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old cl
echo "new: $(/tmp/gelu_accuracy cl)"
echo "HEAD: $(/tmp/gelu_accuracy /tmp/old/cl)"
mkdir -p /tmp/ptx && CLGEMM_NO_CACHE=1 CLGEMM_DUMP_PTX=/tmp/ptx build-gpu/clgemm --device nvidia --no-baseline --size 256 --dtype bf16 --out bf16 --epilogue bias_gelu --algo wgmma_tma -q > /dev/null 2>&1
for f in /tmp/ptx/*.sm90a.ptx; do grep -oE "(ex2|rcp|div|lg2)\.[a-z0-9.]+" $f | sort | uniq -c; done
echo "== D: tests"
} > $P 2>&1
bash bench/device_session.sh --budget 300 tests > $OUT/session.log 2>&1
tail -5 $OUT/session.log >> $P
tail -30 $P
