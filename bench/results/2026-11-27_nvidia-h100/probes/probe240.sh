#!/usr/bin/env bash
# Probe 240 (H100, 1492bfc): (1) the fused bias_gelu's cost at 4096^3 in six interleaved
# rounds of 100 runs: plain, bias_gelu, bf16 C + bias_gelu, for TF32 tensor_core, bf16
# tensor_core, fp32 auto; (2) TF32 at M = 16, N T: the M <= 16 rule's 128-row tile against
# shallower rings (two groups per SM) and other splits, 16x6144x4096 and 16x4096x4096.
source .gpu/setup.sh
P=$OUT/probe240.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:100], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe240.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2 3 4 5 6; do
  for d in "f32 tensor_core" "bf16 tensor_core" "f32 auto"; do
    set -- $d
    run "epi$rep $1 plain" --dtype $1 --size 4096 --iters 100 --algo $2
    run "epi$rep $1 bias_gelu" --dtype $1 --size 4096 --iters 100 --algo $2 --epilogue bias_gelu
    run "epi$rep $1 bf16C+bias_gelu" --dtype $1 --size 4096 --iters 100 --algo $2 --epilogue bias_gelu --out bf16
  done
done
B="BN=16,BK=32,WGN=16,GM=16,PACKA=3,PACKB=2,SWAP=1,ROUNDER=1"
for rep in 1 2; do
  for n in 6144 4096; do
    run "m16 rep$rep $n rule" --trans NT --size 16x${n}x4096 --iters 100 --algo tensor_core
    for bm_st in "128 11" "128 6" "128 5" "64 8"; do
      set -- $bm_st
      for k in 1 2 3 4 5; do
        run "m16 rep$rep $n BM=$1 ST=$2 K=$k" --trans NT --size 16x${n}x4096 --iters 100 --algo "wgmma_tma:BM=$1,STAGES=$2,$B,SPLITK=$k"
      done
    done
  done
done
} > $P 2>&1
cat $P
