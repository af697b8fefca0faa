#!/usr/bin/env bash
# Probe: step 10's staged stores (STAGED=1, loads hoisted) against the direct ones with each
# epilogue at 4096^3.
source .gpu/setup.sh
C=build-gpu/clgemm
run() { local dt=$1 sz=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $C --device nvidia --dtype $dt --size $sz --no-baseline --iters 20 --format json $FLAGS "${a[@]}" 2>>$OUT/probe12.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], sys.argv[2], sys.argv[3], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("params"))' $dt $sz "$FLAGS"; }
{
for ep in bias_gelu gelu bias_relu none; do
  FLAGS="--epilogue $ep" run bf16 4096 tensor_core wgmma_tma:STAGED=1 wgmma_tma:STAGED=0
  FLAGS="--epilogue $ep --out bf16" run bf16 4096 wgmma_tma:STAGED=1 wgmma_tma:STAGED=0
done
FLAGS="--epilogue bias_gelu" run f32 4096 tensor_core wgmma_tma:STAGED=1 wgmma_tma:STAGED=0
} > $OUT/probe12.txt 2>&1
cat $OUT/probe12.txt
