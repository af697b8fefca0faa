#!/usr/bin/env bash
# Probe 143: step 10's staged stores reading a work-item's two bias values once per chunk (the
# working tree) against HEAD (6476541, two loads per pair), 4096^3, plain / bias / bias_relu /
# relu with an fp32 C (staged) and a bias with the copy engine (TSTORE=1) beside them, bf16,
# f16, TF32; and TF32 128x4096x4096 N T with a bias (the rules' swapped C^T: the other branch).
# Three interleaved rounds, every run verified.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe143.txt
run() { local tag=$1 exe=$2; shift 2
  timeout 200 $exe --device nvidia --no-baseline --iters 40 --format json -q "$@" 2>>$OUT/probe143.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
{
cat .gpu/commit
for round in r1 r2 r3; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    for d in bf16 f16; do
      for e in none bias bias_relu relu; do
        run "$round $b" $exe --size 4096 --dtype $d --epilogue $e --algo wgmma_tma
      done
      run "$round $b" $exe --size 4096 --dtype $d --epilogue bias --algo wgmma_tma:TSTORE=1
    done
    for e in none bias bias_relu; do run "$round $b" $exe --size 4096 --epilogue $e --algo tensor_core; done
    for e in none bias; do run "$round $b" $exe --size 128x4096x4096 --trans NT --epilogue $e --algo tensor_core; done
  done
done
} > $P 2>&1
tail -3 $P
