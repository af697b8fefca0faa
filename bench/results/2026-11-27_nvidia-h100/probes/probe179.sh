#!/usr/bin/env bash
# Probe 179: TF32 at 128 < M <= 512 (N T), where the M <= 512 rule (128 x 128 tile, no split)
# ran 0.47-0.67 of cuBLAS in probe163: the rule against its own split in 2 and 4, and the
# wide registers form (128 x 256, PACKA=3, SETMAXNREG=1, swapped) split in 2 and 4; one round;
# cuBLAS after.  For the next session's rule.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe179.txt
run() { local tag=$1; shift
  timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 30 "$@" 2>>$OUT/probe179.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag" || echo "$tag $*: no JSON"; }
R=wgmma_tma:BM=128,BN=128,WGN=128,STAGES=5,PACKA=3,PACKB=2,ROUNDER=1
X=wgmma_tma:PACKA=3,SETMAXNREG=1,SWAP=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for sz in 256x4096x4096 512x4096x4096 512x6144x4096 300x5120x5120 384x28672x4096; do
  run "$sz" --trans NT --size $sz --algo tensor_core --algo $R,SPLITK=2 --algo $R,SPLITK=4 --algo $X --algo $X,SPLITK=2 --algo $X,SPLITK=4
done
python3 bench/cublas.py tf32:256x4096x4096:NT tf32:512x4096x4096:NT tf32:512x6144x4096:NT tf32:300x5120x5120:NT tf32:384x28672x4096:NT 2>&1 | grep cublas
} > $P 2>&1
cat $P
