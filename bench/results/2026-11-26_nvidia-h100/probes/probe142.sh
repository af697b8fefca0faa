#!/usr/bin/env bash
# Probe 142: which stores each epilogue should take at 4096^3 (probe141: with an fp32 C a bias
# alone cost 3% through the staged stores and 1.4% through the copy engine, TSTORE=1; with a
# 16-bit C, whose default is TSTORE=1, bias_gelu cost 6.5%).  Every epilogue with an fp32 C,
# TSTORE 0 and 1, and with a 16-bit C, TSTORE 1 (the default) and 0 (GELU: direct stores),
# three interleaved rounds, bf16 / f16 / TF32, every run verified.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe142.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --size 4096 --iters 40 --format json -q "$@" 2>>$OUT/probe142.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
{
cat .gpu/commit
for round in r1 r2 r3; do
  for d in bf16 f16; do
    for e in none bias relu bias_relu gelu bias_gelu; do
      run $round --dtype $d --epilogue $e --algo wgmma_tma --algo wgmma_tma:TSTORE=1
      run $round --dtype $d --out $d --epilogue $e --algo wgmma_tma --algo wgmma_tma:TSTORE=0
    done
  done
  for e in none bias bias_relu bias_gelu; do
    run $round --epilogue $e --algo tensor_core --algo tensor_core:TSTORE=1
  done
done
} > $P 2>&1
tail -3 $P
