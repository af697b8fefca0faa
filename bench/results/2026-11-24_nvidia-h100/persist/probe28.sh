#!/usr/bin/env bash
# Probe 28: step 10 with PERSIST=P (each group runs up to P problems of a batch, its producer
# copying the next problem's slices while the consumers store C) on the layouts preset's
# attention-sized batches, against the batch rules and cuBLAS bmm in the same command.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - T0 )) s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
C=build-gpu/clgemm
P=$OUT/probe28.txt
run() { local tag=$1 dt=$2 sz=$3 b=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local out=(); [ $dt != f32 ] && out=(--out $dt)
  timeout 200 $C --device nvidia --no-baseline --dtype $dt "${out[@]}" --size $sz --batch $b --iters 50 --format json "${a[@]}" 2>>$OUT/probe28.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), flush=True)' $tag $dt $sz $b; }
W="wgmma_tma:BN=128,WGN=128"
{
CLGEMM_BUILD_OPTIONS="-cl-nv-verbose" CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 timeout 60 $C --device nvidia --no-baseline --dtype bf16 --out bf16 --size 512x512x64 --batch 64 --algo "$W,STAGES=2,PERSIST=4" --algo "$W,STAGES=2" --iters 5 2>&1 | grep -E "gemm_wgmma_tma|registers" | head -8
for rep in 1 2; do
for dt in bf16 f16; do
  run r$rep $dt 512x512x64 64 tensor_core "$W,STAGES=2" "$W,STAGES=2,PERSIST=2" "$W,STAGES=2,PERSIST=4" \
    "$W,STAGES=2,PERSIST=8" "$W,STAGES=4,PERSIST=4" "$W,STAGES=4,PERSIST=8" "$W,STAGES=3,PERSIST=8,STAGED=0" \
    "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,PERSIST=4" "wgmma_tma:BN=256,WGN=256,STAGES=2,PERSIST=8" \
    "$W,STAGES=4,PERSIST=16"
  run r$rep $dt 128x128x64 512 tensor_core "$W,STAGES=2" "$W,STAGES=2,PERSIST=2" "$W,STAGES=2,PERSIST=4" \
    "$W,STAGES=4,PERSIST=4" "$W,STAGES=4,PERSIST=8" "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,PERSIST=4" \
    "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,PERSIST=2" "$W,STAGES=3,PERSIST=4,STAGED=0"
done
  run r$rep f32 512x512x64 64 tensor_core "$W,STAGES=2" "$W,STAGES=2,PERSIST=4" "$W,STAGES=4,PERSIST=8" \
    "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,PERSIST=4" "wgmma_tma:BN=64,WGN=64,STAGES=4,PERSIST=4"
  run r$rep f32 128x128x64 512 tensor_core "$W,STAGES=2" "$W,STAGES=2,PERSIST=4" "$W,STAGES=4,PERSIST=8" \
    "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,PERSIST=4" "wgmma_tma:BN=64,WGN=64,STAGES=4,PERSIST=4"
done
echo "clgemm done at $(( $(date +%s) - T0 )) s"
python3 bench/cublas.py bf16:512x512x64:b64 f16:512x512x64:b64 tf32:512x512x64:b64 bf16:128x128x64:b512 f16:128x128x64:b512 tf32:128x128x64:b512 bf16:512x512x64:b64 bf16:128x128x64:b512 > $OUT/cublas28.json
} > $P 2>&1
cat $P; echo "total $(( $(date +%s) - T0 )) s"
