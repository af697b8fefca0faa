#!/usr/bin/env bash
# Probe 133: bias_gelu at 4096^3 with step 10's staged stores (STAGED=1) against the direct ones
# its default takes with GELU, fp32 and bf16 C, bf16 and TF32; three interleaved rounds.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe133.txt
run() {
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --size 4096 --iters 30 --format json -q "$@" 2>>$OUT/probe133.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$*" || echo "$*: no JSON"; }
{
cat .gpu/commit
for round in 1 2 3; do
  run --dtype bf16 --algo tensor_core --algo wgmma_tma --algo wgmma_tma:STAGED=1 --algo wgmma_tma:STAGED=0
  run --dtype bf16 --epilogue bias_gelu --algo tensor_core --algo wgmma_tma --algo wgmma_tma:STAGED=1 --algo wgmma_tma:STAGED=0
  run --dtype bf16 --epilogue bias --algo wgmma_tma --algo wgmma_tma:STAGED=0
  run --dtype f16 --epilogue bias_gelu --algo wgmma_tma --algo wgmma_tma:STAGED=1
  run --dtype f16 --algo wgmma_tma
  run --algo tensor_core --algo tensor_core:STAGED=1
  run --epilogue bias_gelu --algo tensor_core --algo tensor_core:STAGED=1
done
CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose build-gpu/clgemm --device nvidia --size 1024 --dtype bf16 --epilogue bias_gelu --no-baseline --iters 1 --algo wgmma_tma --algo wgmma_tma:STAGED=1 2>&1 | grep -E "Used|spill" | grep -v " 0 bytes spill"
} > $P 2>&1
tail -3 $P
