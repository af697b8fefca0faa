#!/usr/bin/env bash
# Probe 150: step 10's staged stores reading every chunk's bias values at once where the stores
# begin (the working tree) against HEAD (301b17f: two values read at each chunk), 4096^3, bf16
# and TF32, fp32 and bf16 C, bias / bias_relu / bias_gelu, and bias_gelu staged (STAGED=1,
# which GELU does not take by default); TF32 128x4096x4096 N T (swapped C^T: the bias per
# row).  Three interleaved rounds, every run verified.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe150.txt
run() { local tag=$1 exe=$2; shift 2
  timeout 200 $exe --device nvidia --no-baseline --iters 40 --format json -q "$@" 2>>$OUT/probe150.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2 r3; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    export CLGEMM_CACHE_DIR=/tmp/c$b
    for e in none bias bias_relu bias_gelu; do
      run "$round $b" $exe --size 4096 --dtype bf16 --epilogue $e --algo wgmma_tma
    done
    run "$round $b" $exe --size 4096 --dtype bf16 --epilogue bias_gelu --algo wgmma_tma:STAGED=1
    for e in none bias bias_gelu; do
      run "$round $b" $exe --size 4096 --dtype bf16 --out bf16 --epilogue $e --algo wgmma_tma
    done
    run "$round $b" $exe --size 4096 --dtype bf16 --out bf16 --epilogue bias_gelu --algo wgmma_tma:STAGED=1,TSTORE=0
    for e in none bias bias_gelu; do run "$round $b" $exe --size 4096 --epilogue $e --algo tensor_core; done
    run "$round $b" $exe --size 4096 --epilogue bias_gelu --algo wgmma_tma:STAGED=1
    for e in none bias; do run "$round $b" $exe --size 128x4096x4096 --trans NT --epilogue $e --algo tensor_core; done
  done
done
} > $P 2>&1
tail -3 $P
