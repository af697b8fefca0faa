#!/usr/bin/env bash
# Probe 132: what GELU's arithmetic costs the fused bias_gelu at 4096^3: the shipped form (exp and
# an IEEE division) against native_exp / native_divide (-DGEMM_GELU_FAST, a probe-only switch),
# three interleaved rounds; clgemm's error column checks each against the reference.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe132.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --size 4096 --iters 30 --format json -q "$@" 2>>$OUT/probe132.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
{
cat .gpu/commit
for round in 1 2 3; do
  for opt in "" "-DGEMM_GELU_FAST=1"; do
    export CLGEMM_BUILD_OPTIONS="$opt"
    t=${opt:-exact}
    run $t --dtype bf16 --algo tensor_core
    run $t --dtype bf16 --algo tensor_core --epilogue bias_gelu
    run $t --dtype bf16 --out bf16 --algo tensor_core --epilogue bias_gelu
    run $t --algo tensor_core
    run $t --algo tensor_core --epilogue bias_gelu
    run $t --algo auto
    run $t --algo auto --epilogue bias_gelu
  done
done
} > $P 2>&1
tail -3 $P
