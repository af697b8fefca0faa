#!/usr/bin/env bash
# Probe 181 (prepared at the stop of 2026-11-27, not yet run): what the next rules need.
# (1) TF32 N N at 128 < M <= 512: the swapped N N rule unsplit against split 2 and 4;
# (2) TF32 N T tile width: the M <= 512 rule (128 x 128, split by rounds) against the wide
#     registers form (128 x 256, PACKA=3, SETMAXNREG=1, swapped) split 1 and 2;
# (3) fp32 auto N T at M = 96..128: step 7 READT=1 against swapped (SWAP=1, READT=0) with
#     every split 1..16, so that the split model's two fits (80/72 against 464/0) can be told
#     apart (2 slices at 128x6144x4096 was never timed on the swapped form).
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe181.txt
run() { local tag=$1; shift
  timeout 120 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 30 "$@" 2>>$OUT/probe181.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag" || echo "$tag $*: no JSON"; }
RN=wgmma_tma:BM=128,BN=128,WGN=128,STAGES=5,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
X=wgmma_tma:PACKA=3,SETMAXNREG=1,SWAP=1
S2=warp_tiled:SWAP=1,READT=0
R=warp_tiled:READT=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for sz in 256x4096x4096 512x4096x4096 512x6144x4096 300x5120x5120 384x28672x4096; do
  run "tf32 NN $sz" --trans NN --size $sz --algo tensor_core --algo $RN,SPLITK=2 --algo $RN,SPLITK=4
  run "tf32 NT $sz" --trans NT --size $sz --algo tensor_core --algo $X --algo $X,SPLITK=2
done
for sz in 128x4096x4096 128x6144x4096 128x28672x4096 96x5120x5120 112x4096x4096; do
  a=""; for s in 1 2 3 4 6 8 12 16; do a="$a --algo $S2,SPLITK=$s --algo $R,SPLITK=$s"; done
  run "f32 NT $sz" --trans NT --size $sz --algo auto $a
done

# (4) fp32 auto N T batches (CLBlast beside; 1.93x at 512 x 128^2 x 64, #16 asks 2x)
runb() { local tag=$1; shift
  timeout 150 build-gpu/clgemm --device nvidia --format json -q --iters 50 "$@" 2>>$OUT/probe181.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag" || echo "$tag $*: no JSON"; }
W=warp_tiled:BK=16,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1,MAXNREG=128
for sz in 128x128x64:512 512x512x64:64; do
  runb "f32 NT batch ${sz#*:} x ${sz%:*}" --trans NT --batch ${sz#*:} --size ${sz%:*} --algo auto --algo $W,CLAMP=0 --algo $W,APAD=0 --algo $W,APAD=8 --algo $W,BK=32 --algo warp_tiled:BK=16,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1 --algo warp_tiled:BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16,READT=1,CLAMP=1 --algo warp_tiled:BM=128,BN=64,BK=16,TM=8,TN=8,WM=64,WN=32,READT=1,CLAMP=1 --algo $W,PREFETCH=0
done
python3 bench/cublas.py tf32:256x4096x4096:NN tf32:512x6144x4096:NN tf32:512x6144x4096:NT fp32:112x4096x4096:NT fp32:96x5120x5120:NT 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
