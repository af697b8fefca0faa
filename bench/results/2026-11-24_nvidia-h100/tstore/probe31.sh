#!/usr/bin/env bash
# Probe 31: step 10's tensor-map stores of C (TSTORE=1, mma/tma_store_tensor.h) on the layouts
# preset's batches and at 4096^3, against the rules and cuBLAS in one command; then the
# layouts tests with the real (not emulated) matrix units.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
C=build-gpu/clgemm
P=$OUT/probe31.txt
run() { local tag=$1 dt=$2 out=$3 sz=$4 b=$5 ep=$6; shift 6; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $out != f32 ] && o=(--out $out); [ $ep != none ] && o+=(--epilogue $ep)
  timeout 200 $C --device nvidia --no-baseline --dtype $dt "${o[@]}" --size $sz --batch $b --iters 50 --format json "${a[@]}" 2>>$OUT/probe31.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), flush=True)' $tag $dt $out $sz $b $ep; }
W="wgmma_tma:BN=128,WGN=128"
{
CLGEMM_BUILD_OPTIONS="-cl-nv-verbose" CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 timeout 60 $C --device nvidia --no-baseline --dtype bf16 --out bf16 --size 512x512x64 --batch 64 --algo "$W,STAGES=4,PERSIST=1,TSTORE=1" --iters 5 2>&1 | grep -E "registers|error" | head -4
for rep in 1 2; do
  for sb in "512x512x64 64" "128x128x64 512"; do set -- $sb
  for dt in bf16 f16; do
  run r$rep $dt $dt $1 $2 none tensor_core "$W,STAGES=4,PERSIST=1,TSTORE=1" "$W,STAGES=3,PERSIST=1,TSTORE=1" \
    "wgmma_tma:BN=256,WGN=256,STAGES=3,PERSIST=1,TSTORE=1" "$W,STAGES=4,PERSIST=2,TSTORE=1" \
    "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,PERSIST=1,TSTORE=1" "$W,STAGES=4,TSTORE=1"
  done
  run r$rep bf16 f32 $1 $2 none tensor_core "$W,STAGES=4,PERSIST=1,TSTORE=1"
  run r$rep bf16 bf16 $1 $2 bias_gelu tensor_core "$W,STAGES=4,PERSIST=1,TSTORE=1"
  run r$rep f32 f32 $1 $2 none tensor_core "$W,STAGES=4,PERSIST=1,PACKA=3" "$W,STAGES=4,PERSIST=1,PACKA=3,TSTORE=1" \
    "$W,STAGES=3,PERSIST=1,PACKA=3,TSTORE=1" "wgmma_tma:BN=64,WGN=64,STAGES=4,PERSIST=1,PACKA=3,TSTORE=1"
  done
  for dt in bf16 f16; do
    run r$rep $dt $dt 4096 1 none tensor_core wgmma_tma wgmma_tma:TSTORE=1
  done
  run r$rep bf16 f32 4096 1 none tensor_core wgmma_tma:TSTORE=1
  run r$rep bf16 bf16 4096 1 bias_gelu tensor_core wgmma_tma:TSTORE=1
  run r$rep f32 f32 4096 1 none tensor_core wgmma_tma wgmma_tma:TSTORE=1
done
echo "clgemm done at $(( $(date +%s) - T0 )) s"
python3 bench/cublas.py bf16:512x512x64:b64 f16:512x512x64:b64 tf32:512x512x64:b64 bf16:128x128x64:b512 f16:128x128x64:b512 tf32:128x128x64:b512 bf16:4096 f16:4096 tf32:4096 > $OUT/cublas31.json
echo "cublas done at $(( $(date +%s) - T0 )) s"
export CLGEMM_TEST_DEVICE=nvidia CLGEMM_EMULATE_MATRIX=0
timeout 150 build-gpu/tests/test_layouts > $OUT/layouts_real.txt 2>&1; echo "test_layouts rc $?"
grep -E "^(ok|FAIL)" $OUT/layouts_real.txt | cut -c1-150
timeout 90 build-gpu/tests/test_correctness layouts:1/6 > $OUT/corr_layouts_real.txt 2>&1; echo "correctness layouts rc $?"
grep -E "TSTORE|cases" $OUT/corr_layouts_real.txt | cut -c1-200 | tail -14
grep -c "^FAIL" $OUT/corr_layouts_real.txt
} > $P 2>&1
cat $P; echo "total $(( $(date +%s) - T0 )) s"
