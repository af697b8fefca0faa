#!/usr/bin/env bash
# Probe 257 (H100): (A) where a fused GELU's cost lies on step 10: the plain store is staged
# through local memory, GELU's is direct (cl/mma/tma_store.h), so "GELU's cost" holds the
# difference of the two store paths.  TF32 and bf16 4096^3 (fp32 C), each epilogue on each
# path (-DSTAGED=0/1), three interleaved rounds of 100 runs; register and spill counts of
# each build (-cl-nv-verbose) and the final PTX kept for an offline ptxas/SASS read.
# (B) the 16-bit M <= 16 ring (16 vs 8 slots) at widths and depths probe254 did not cover,
# to see whether the number of groups or the length of K decides.
source .gpu/setup.sh
P=$OUT/probe257.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("params") or "")[:110], flush=True)' "$1" || echo "$1: no JSON"; }
export CLGEMM_CACHE_DIR=/tmp/cc257
run() { local tag=$1 opt=$2; shift 2; CLGEMM_BUILD_OPTIONS="$opt" timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe257.err | show "$tag"; }
regs() { local tag=$1 opt=$2; shift 2
  mkdir -p $OUT/ptx/$tag
  CLGEMM_CACHE_DIR=$OUT/ptx/$tag CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS="-cl-nv-verbose $opt" \
    timeout 120 build-gpu/clgemm --device nvidia --no-baseline --iters 1 --warmup 0 -q "$@" 2>&1 |
    grep -E "Used [0-9]+ registers|spill|bytes stack" | sed "s/^/$tag: /" | sort -u | head -12; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
echo "== registers"
for e in none bias_gelu; do for st in 0 1; do
  regs "tf32_${e}_st$st" "-DSTAGED=$st" --size 4096 --algo tensor_core --epilogue $e
  regs "bf16_${e}_st$st" "-DSTAGED=$st" --size 4096 --dtype bf16 --algo tensor_core --epilogue $e
done; done
echo "== timings"
for r in 1 2 3; do
  for d in f32 bf16; do
    for e in none bias_gelu gelu; do
      for st in 0 1; do run "r$r $d $e STAGED=$st" "-DSTAGED=$st" --size 4096 --dtype $d --iters 100 --algo tensor_core --epilogue $e; done
    done
  done
done
echo "== 16-bit M <= 16 ring"
H="BM=64,BN=16,WGN=16,SWAP=1,INFLIGHT=1"
for r in 1 2; do
  for s in 16x4096x4096 16x4096x8192 16x6144x14336 16x8192x8192 16x8192x4096 16x5120x4096 16x4096x14336 16x6144x4096; do
    for st in 16 8; do run "r$r bf16 $s ST=$st" "" --trans NT --dtype bf16 --out bf16 --size $s --iters 100 --algo "wgmma_tma:$H,STAGES=$st"; done
  done
done
} > $P 2>&1
cat $P
