#!/usr/bin/env bash
# Probe 86 (run at c6d60e4, then again after the vector copy as probe87): 16-bit operands at a leading dimension TMA cannot read (--ld-pad 0 at 4095^3 and
# 1000x3000x777: the layout pre-pass copies them first) against the aligned default, with the
# GEMM kernel alone timed too (CLGEMM_TIME_LAST_KERNEL_ONLY), and fp32 beside them.
source .gpu/setup.sh
P=$OUT/probe86.txt
run() { local tag=$1 dt=$2 sz=$3; shift 3
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt "${o[@]}" --size $sz --iters 30 --format json "$@" 2>>$OUT/probe86.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $tag $dt $sz "$*" || echo "$tag $dt $sz : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for dt in bf16 f16 f32; do for sz in 4095 1000x3000x777 4096; do
  run aligned $dt $sz --algo tensor_core
  run tight $dt $sz --algo tensor_core --ld-pad 0
  CLGEMM_TIME_LAST_KERNEL_ONLY=1 run tight-kernel $dt $sz --algo tensor_core --ld-pad 0
done; done
for sz in 4095 1000x3000x777; do
  run tight-bf16-f32out bf16 $sz --algo tensor_core --ld-pad 0 --out f32
done
} > $P 2>&1
tail -2 $P
