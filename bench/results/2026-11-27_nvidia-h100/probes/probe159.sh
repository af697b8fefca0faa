#!/usr/bin/env bash
# Probe 159: where the fixed cost of a step 10 call goes (issue #16's 16-bit batches: about
# 4-5 us above cuBLAS's bmm at every batch size, probe103).  bf16 data, bf16 C, 128x128x64,
# batches of 1 and 512, the batch rule (PERSIST=1,TSTORE=1) and its parts switched off, a
# plain call, and the same call with its kernel alone timed; three interleaved rounds;
# cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe159.txt
run() { local tag=$1; shift
  timeout 100 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 200 "$@" 2>>$OUT/probe159.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
R=wgmma_tma:BN=128,WGN=128,STAGES=4
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2 r3; do
  for b in 1 512; do
    run "$round" --dtype bf16 --out bf16 --size 128x128x64 --batch $b --algo tensor_core --algo $R,PERSIST=1,TSTORE=1 --algo $R,PERSIST=1,TSTORE=0 --algo $R,PERSIST=0,TSTORE=1 --algo $R,PERSIST=0,TSTORE=0 --algo $R,PERSIST=1,TSTORE=1,STAGES=2
    CLGEMM_TIME_LAST_KERNEL_ONLY=1 run "$round kernel-only" --dtype bf16 --out bf16 --size 128x128x64 --batch $b --algo tensor_core
  done
  run "$round" --dtype bf16 --out bf16 --size 128x128x64 --algo tensor_core --algo $R --algo $R,TSTORE=1
  run "$round" --dtype bf16 --out bf16 --size 128x128x16 --algo $R
  run "$round" --dtype bf16 --size 128x128x64 --algo $R --algo $R,STAGED=0
  run "$round" --dtype bf16 --size 128x4096x64 --algo tensor_core
done
python3 bench/cublas.py bf16:128x128x64:NN:b1 bf16:128x128x64:NN:b512 bf16:128x128x64:NN bf16:128x128x16:NN bf16:128x4096x64:NN 2>&1 | grep "cublas"
} > $P 2>&1
tail -3 $P
