#!/usr/bin/env bash
# Probe 141: a fused bias_gelu at 4096^3 with an fp32 C stored by the copy engine (TSTORE=1: the
# epilogue's values written to local memory boxes, one tensor-map store) against the GELU
# build's direct stores (the default) and the plain GEMM, three interleaved rounds, every run
# verified; bf16, f16 and TF32.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe141.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --size 4096 --iters 40 --format json -q "$@" 2>>$OUT/probe141.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
{
cat .gpu/commit
for round in r1 r2 r3; do
  for d in bf16 f16; do
    run $round --dtype $d --algo tensor_core --algo wgmma_tma --algo wgmma_tma:TSTORE=1
    run $round --dtype $d --epilogue bias_gelu --algo tensor_core --algo wgmma_tma --algo wgmma_tma:TSTORE=1
    run $round --dtype $d --epilogue bias --algo tensor_core --algo wgmma_tma:TSTORE=1
    run $round --dtype $d --out $d --algo tensor_core
    run $round --dtype $d --out $d --epilogue bias_gelu --algo tensor_core
  done
  run $round --algo tensor_core --algo wgmma_tma:TSTORE=1
  run $round --epilogue bias_gelu --algo tensor_core --algo wgmma_tma:TSTORE=1
done
} > $P 2>&1
tail -3 $P
