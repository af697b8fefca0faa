#!/usr/bin/env bash
# Probe 29: step 10 with PERSIST=G (about G groups per compute unit, the host choosing how
# many problems each runs) on the layouts preset's batches; the floor without C's stores
# (a temporary knob); TF32 forms.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
C=build-gpu/clgemm
P=$OUT/probe29.txt
run() { local tag=$1 dt=$2 sz=$3 b=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local out=(); [ $dt != f32 ] && out=(--out $dt)
  timeout 200 $C --device nvidia --no-baseline --dtype $dt "${out[@]}" --size $sz --batch $b --iters 50 --format json "${a[@]}" 2>>$OUT/probe29.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), flush=True)' $tag $dt $sz $b; }
W="wgmma_tma:BN=128,WGN=128"
{
for rep in 1 2; do
  for sb in "512x512x64 64" "128x128x64 512"; do set -- $sb
  run r$rep bf16 $1 $2 tensor_core "$W,STAGES=4,PERSIST=1" "$W,STAGES=2,PERSIST=1" "$W,STAGES=6,PERSIST=1" \
    "wgmma_tma:BN=256,WGN=256,STAGES=2,PERSIST=1" "wgmma_tma:BN=256,WGN=256,STAGES=3,PERSIST=1" \
    "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,PERSIST=2" "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,PERSIST=3" \
    "wgmma_tma:BM=64,BN=256,WGN=256,STAGES=3,PERSIST=1" "$W,STAGES=4,PERSIST=2" "wgmma_tma:BN=64,WGN=64,STAGES=4,PERSIST=1"
  CLGEMM_BUILD_OPTIONS="-DCLGEMM_PROBE_NO_STORE=1" run nostore$rep bf16 $1 $2 "$W,STAGES=4,PERSIST=1" "$W,STAGES=2" "wgmma_tma:BN=256,WGN=256,STAGES=3,PERSIST=1"
  run r$rep f32 $1 $2 tensor_core "$W,STAGES=4,PERSIST=1" "$W,STAGES=4,PERSIST=1,PACKA=3" \
    "wgmma_tma:BN=64,WGN=64,STAGES=4,PERSIST=1,PACKA=3" "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,PERSIST=2,PACKA=3" \
    "wgmma_tma:BN=256,WGN=256,BK=16,STAGES=4,PERSIST=1"
  done
done
echo "clgemm done at $(( $(date +%s) - T0 )) s"
python3 bench/cublas.py bf16:512x512x64:b64 tf32:512x512x64:b64 bf16:128x128x64:b512 tf32:128x128x64:b512 > $OUT/cublas29.json
} > $P 2>&1
cat $P; echo "total $(( $(date +%s) - T0 )) s"
