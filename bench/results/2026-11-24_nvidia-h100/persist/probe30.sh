#!/usr/bin/env bash
# Probe 30: step 10's bulk stores (BULK=1, mma/tma_store_bulk.h) with and without PERSIST on
# the layouts preset's batches and at 4096^3, against the rules and cuBLAS in one command.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
C=build-gpu/clgemm
P=$OUT/probe30.txt
run() { local tag=$1 dt=$2 out=$3 sz=$4 b=$5; shift 5; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $out != f32 ] && o=(--out $out)
  timeout 200 $C --device nvidia --no-baseline --dtype $dt "${o[@]}" --size $sz --batch $b --iters 50 --format json "${a[@]}" 2>>$OUT/probe30.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), flush=True)' $tag $dt $out $sz $b; }
W="wgmma_tma:BN=128,WGN=128"
{
CLGEMM_BUILD_OPTIONS="-cl-nv-verbose" CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 timeout 60 $C --device nvidia --no-baseline --dtype bf16 --out bf16 --size 512x512x64 --batch 64 --algo "$W,STAGES=4,PERSIST=1,BULK=1" --iters 5 2>&1 | grep -E "registers|error" | head -4
for rep in 1 2; do
  for sb in "512x512x64 64" "128x128x64 512"; do set -- $sb
  for dt in bf16 f16; do
  run r$rep $dt $dt $1 $2 tensor_core "$W,STAGES=4,PERSIST=1" "$W,STAGES=4,PERSIST=1,BULK=1" "$W,STAGES=2,PERSIST=1,BULK=1" \
    "wgmma_tma:BN=256,WGN=256,STAGES=3,PERSIST=1,BULK=1" "wgmma_tma:BN=64,WGN=64,STAGES=4,PERSIST=1,BULK=1" "$W,STAGES=2,BULK=1"
  done
  run r$rep f32 f32 $1 $2 tensor_core "$W,STAGES=4,PERSIST=1,PACKA=3" "$W,STAGES=4,PERSIST=1,PACKA=3,BULK=1" \
    "wgmma_tma:BN=64,WGN=64,STAGES=4,PERSIST=1,PACKA=3,BULK=1"
  done
  for dt in bf16 f16; do
    run r$rep $dt $dt 4096 1 tensor_core wgmma_tma wgmma_tma:BULK=1
    run r$rep $dt f32 4096 1 tensor_core wgmma_tma wgmma_tma:BULK=1
  done
  run r$rep f32 f32 4096 1 tensor_core wgmma_tma wgmma_tma:BULK=1
  run r$rep f32 bf16 4096 1 tensor_core wgmma_tma wgmma_tma:BULK=1
done
echo "clgemm done at $(( $(date +%s) - T0 )) s"
python3 bench/cublas.py bf16:512x512x64:b64 f16:512x512x64:b64 tf32:512x512x64:b64 bf16:128x128x64:b512 f16:128x128x64:b512 tf32:128x128x64:b512 bf16:4096 f16:4096 tf32:4096 > $OUT/cublas30.json
} > $P 2>&1
cat $P; echo "total $(( $(date +%s) - T0 )) s"
