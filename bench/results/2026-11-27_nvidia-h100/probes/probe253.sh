#!/usr/bin/env bash
# Probe 253 (H100, working tree: cl/epilogue.h with GELU_PROBE variants): is a fused GELU's
# cost (+2.7% at TF32 4096^3, probe252) its two special-function instructions per value?
# GELU_PROBE=1 keeps only the power (ex2), 2 only the reciprocal (both wrong values: timed
# unchecked); 3 computes a pair's two reciprocals from one (r = 1/(a b): 1/a = b r,
# 1/b = a r; the power's argument capped at 30 so that a b stays finite), 1.5 special
# instructions per value, checked.  Four interleaved rounds; bf16 data beside.
source .gpu/setup.sh
P=$OUT/probe253.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:60], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1 g=$2; shift 2; CLGEMM_NO_CACHE=1 CLGEMM_BUILD_OPTIONS="-DGELU_PROBE=$g" timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe253.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; git diff --stat; date -u
for r in 1 2 3 4; do
  run "r$r tf32 none" 0 --size 4096 --iters 100 --algo tensor_core
  for g in 0 1 2 3; do
    ck=""; [ $g = 1 -o $g = 2 ] && ck=--no-check
    run "r$r tf32 gelu G$g" $g --size 4096 --iters 100 --algo tensor_core --epilogue gelu $ck
    run "r$r tf32 bias_gelu G$g" $g --size 4096 --iters 100 --algo tensor_core --epilogue bias_gelu $ck
  done
  run "r$r bf16 none" 0 --size 4096 --iters 100 --dtype bf16 --algo tensor_core
  for g in 0 3; do
    run "r$r bf16 bias_gelu G$g" $g --size 4096 --iters 100 --dtype bf16 --algo tensor_core --epilogue bias_gelu
  done
done
} > $P 2>&1
cat $P
