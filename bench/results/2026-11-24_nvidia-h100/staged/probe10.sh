#!/usr/bin/env bash
# Probe: is a batch of short-K problems bound by C's stores?  Step 10 tiles with and without
# their stores (a temporary PROBE_NO_STORE knob), fp32 and bf16 C; and the single-launch floor.
source .gpu/setup.sh
C=build-gpu/clgemm
run() { local dt=$1 sz=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $C --device nvidia --dtype $dt --size $sz --no-baseline --iters 50 --format json $FLAGS "${a[@]}" 2>>$OUT/probe10.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], sys.argv[2], sys.argv[3], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("params"))' $dt $sz "$FLAGS $CLGEMM_BUILD_OPTIONS"; }
export CLGEMM_BUILD_OPTIONS=
w=wgmma_tma
V="tensor_core $w:BN=128,WGN=128,STAGES=2 $w:BN=256,STAGES=2 $w:BM=64,BN=128,WGN=128,STAGES=2 $w:BN=64,WGN=64,STAGES=2 $w:BM=64,BN=64,WGN=64,STAGES=2"
{
echo "== launch floor"
FLAGS=
run f32 1x1x1 naive warp_tiled
run bf16 16x16x16 tensor_core mma $w:BN=64,WGN=64,STAGES=2 $w:BM=64,BN=64,WGN=64,STAGES=2
echo "== batches"
for out in bf16 f32; do
  for nostore in "" "-DPROBE_NO_STORE=1"; do
    export CLGEMM_BUILD_OPTIONS=$nostore
    FLAGS="--batch 64 --out $out" run bf16 512x512x64 $V
    FLAGS="--batch 512 --out $out" run bf16 128x128x64 $V
  done
done
export CLGEMM_BUILD_OPTIONS=
FLAGS="--batch 64" run f32 512x512x64 auto tensor_core $w:BN=128,WGN=128,STAGES=2 $w:BM=64,BN=128,WGN=128,STAGES=2
} > $OUT/probe10.txt 2>&1
python3 - >> $OUT/probe10.txt 2>&1 <<'PY'
import sys; sys.path.insert(0, 'bench'); import cublas
for job in ['bf16:512x512x64:b64:r50', 'bf16:128x128x64:b512:r50', 'tf32:512x512x64:b64:r50', 'fp32:512x512x64:b64:r50']:
    mode, M, N, K, trans, batch, runs, cold = cublas.parse_job(job)
    print('cublas', job, cublas.time_matmul(M, N, K, mode, runs=runs, trans=trans, batch=batch))
PY
cat $OUT/probe10.txt
