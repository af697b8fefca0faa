#!/usr/bin/env bash
# Probe 252 (H100): where TF32 4096^3's fused bias_gelu spends its +3.4-4.2% (probes 240-241):
# each epilogue alone (bias, relu, bias_relu, gelu, bias_gelu) against the plain GEMM, fp32 C,
# the default direct stores, four interleaved rounds of 100 runs.
source .gpu/setup.sh
P=$OUT/probe252.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:60], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe252.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2 3 4; do
  for e in none bias relu bias_relu gelu bias_gelu; do
    run "r$r $e" --size 4096 --iters 100 --algo tensor_core --epilogue $e
  done
done
} > $P 2>&1
cat $P
