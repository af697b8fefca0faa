#!/usr/bin/env bash
# Probe 155: step 10 prefetching its kept tensor maps at the group's start (the working tree)
# against HEAD 97983d4 built beside it: small 16-bit and TF32 calls, batches, 4096^3, three
# interleaved rounds; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe155.txt
run() { local tag=$1 exe=$2; shift 2
  timeout 200 $exe --device nvidia --no-baseline --iters 100 --format json -q "$@" 2>>$OUT/probe155.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2 r3; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    export CLGEMM_CACHE_DIR=/tmp/c$b
    run "$round $b" $exe --trans NT --size 16x4096x4096 --dtype bf16 --out bf16 --algo tensor_core
    run "$round $b" $exe --trans NT --size 16x4096x4096 --dtype f16 --out f16 --algo tensor_core
    run "$round $b" $exe --trans NT --size 128x4096x4096 --dtype f16 --out f16 --algo tensor_core
    run "$round $b" $exe --trans NT --size 128x4096x4096 --dtype bf16 --out bf16 --algo tensor_core
    run "$round $b" $exe --trans NT --size 128x4096x4096 --algo tensor_core
    run "$round $b" $exe --size 128x128x64 --batch 512 --dtype bf16 --out bf16 --algo tensor_core
    run "$round $b" $exe --size 128x128x64 --batch 512 --dtype f16 --out f16 --algo tensor_core
    run "$round $b" $exe --size 512x512x64 --batch 64 --dtype bf16 --out bf16 --algo tensor_core
    run "$round $b" $exe --size 128x128x64 --batch 512 --algo tensor_core
    run "$round $b" $exe --size 4096 --dtype bf16 --algo tensor_core
  done
done
python3 bench/cublas.py bf16:16x4096x4096:NT f16:16x4096x4096:NT f16:128x4096x4096:NT bf16:128x4096x4096:NT tf32:128x4096x4096:NT bf16:128x128x64:NN:b512 f16:128x128x64:NN:b512 bf16:512x512x64:NN:b64 tf32:128x128x64:NN:b512 2>&1 | grep -v "^{" | tail -12
} > $P 2>&1
tail -3 $P
