#!/usr/bin/env bash
# Probe 241 (H100, 1492bfc): (1) TF32 4096^3 with a fused bias_gelu and an fp32 C stored by
# the copy engine (TSTORE=1) or staged (STAGED=1) instead of the direct stores GELU takes by
# default, against the plain GEMM, four interleaved rounds; (2) TF32's M <= 16 rule (128-row
# tile, STAGES=11, one group per SM) against STAGES=6 (two groups per SM) at the rule's own
# splits, N T and N N, over the Llama shapes and a few others.
source .gpu/setup.sh
P=$OUT/probe241.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:110], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("params") or "")[-40:], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe241.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2 3 4; do
  run "epi$rep plain" --size 4096 --iters 100 --algo tensor_core
  run "epi$rep bias_gelu" --size 4096 --iters 100 --algo tensor_core --algo tensor_core:TSTORE=1 --algo tensor_core:STAGED=1 --epilogue bias_gelu
  run "epi$rep plain-tstore" --size 4096 --iters 100 --algo tensor_core:TSTORE=1
  run "epi$rep gelu" --size 4096 --iters 100 --algo tensor_core --algo tensor_core:TSTORE=1 --epilogue gelu
done
B="BM=128,BN=16,WGN=16,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
for rep in 1 2; do
  for tr in NT NN; do
    for sk in "16x4096x4096 4" "16x6144x4096 2" "16x11008x4096 1" "16x28672x4096 1" "16x4096x14336 4" "8x4096x4096 4" "3x5000x3000 2" "12x2048x8192 8"; do
      set -- $sk
      run "m16 rep$rep $tr $1 rule" --trans $tr --size $1 --iters 100 --algo tensor_core
      for st in 11 6 5; do
        run "m16 rep$rep $tr $1 ST=$st" --trans $tr --size $1 --iters 100 --algo "wgmma_tma:$B,STAGES=$st,SPLITK=$2"
      done
    done
  done
done
} > $P 2>&1
cat $P
