#!/usr/bin/env bash
# Probe: step 10 with its stores staged through local memory (tma_store.h): batches of short-K
# problems against step 8 (what tensor_core's batch runs), and the small-M shapes (SWAP's
# transposed C).
source .gpu/setup.sh
C=build-gpu/clgemm
run() { local dt=$1 sz=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $C --device nvidia --dtype $dt --size $sz --no-baseline --iters 50 --format json $FLAGS "${a[@]}" 2>>$OUT/probe11.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], sys.argv[2], sys.argv[3], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("params"))' $dt $sz "$FLAGS"; }
w=wgmma_tma
V="tensor_core $w $w:BN=128,WGN=128,STAGES=2 $w:BN=256,STAGES=2 $w:BM=64,BN=128,WGN=128,STAGES=2 $w:BN=64,WGN=64,STAGES=2 $w:BN=128,WGN=128,STAGES=2,STAGED=0"
{
echo "== batches"
for out in bf16 f32; do
  FLAGS="--batch 64 --out $out" run bf16 512x512x64 $V
  FLAGS="--batch 512 --out $out" run bf16 128x128x64 $V
done
FLAGS="--batch 64" run f32 512x512x64 tensor_core $w $w:BN=128,WGN=128,STAGES=2 $w:BM=64,BN=128,WGN=128,STAGES=2
FLAGS="--batch 512" run f32 128x128x64 tensor_core $w $w:BN=128,WGN=128,STAGES=2 $w:BM=64,BN=128,WGN=128,STAGES=2
echo "== small M (NT)"
for sz in 16x4096x4096 128x4096x4096 128x6144x4096 128x4096x14336; do
  FLAGS="--trans NT --out bf16" run bf16 $sz tensor_core
  FLAGS="--trans NT --out f16" run f16 $sz tensor_core
  FLAGS="--trans NT" run f32 $sz tensor_core
done
} > $OUT/probe11.txt 2>&1
cat $OUT/probe11.txt
