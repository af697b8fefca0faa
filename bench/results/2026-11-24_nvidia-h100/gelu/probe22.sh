#!/usr/bin/env bash
# Probe 22: step 10's stores written once per beta case and edge case (GEMM_FOR_BETA, no
# branch per element), at 4096^3 NN: plain, bias, gelu, bias_gelu; staged and direct; GELU's
# sigmoid with exp and '/' (GELU_FORM 0, the shipped form) and with native_exp and
# native_recip (2, a probe-only define).
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe22.txt
run() { local tag=$1 tr=$2 sz=$3 dt=$4 ep=$5 o=$6; shift 6; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $C --device nvidia --size $sz --trans $tr --dtype $dt --out $o --epilogue $ep --no-baseline --iters 30 --format json "${a[@]}" 2>>$OUT/probe22.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("params"), flush=True)' $tag $tr $sz $dt $ep $o; }
{
w=wgmma_tma
for rep in 1 2; do
for dt in bf16 f32; do
  run r$rep NN 4096 $dt none f32 tensor_core $w:STAGED=0
  run r$rep NN 4096 $dt bias f32 tensor_core $w:STAGED=0
  for F in 0 2; do
    CLGEMM_BUILD_OPTIONS=-DGELU_FORM=$F run r$rep-form$F NN 4096 $dt gelu f32 $w:STAGED=0 $w:STAGED=1
    CLGEMM_BUILD_OPTIONS=-DGELU_FORM=$F run r$rep-form$F NN 4096 $dt bias_gelu f32 tensor_core $w:STAGED=1
  done
done
run r$rep NN 4096 bf16 none bf16 tensor_core
CLGEMM_BUILD_OPTIONS=-DGELU_FORM=0 run r$rep-form0 NN 4096 bf16 bias_gelu bf16 tensor_core $w:STAGED=1
done
} > $P 2>&1
cat $P
