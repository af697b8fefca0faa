#!/usr/bin/env bash
# Probe 185: 16-bit M = 16 (bf16, f16 C as in the llama preset), N T: the M <= 16 rule's
# swapped 64 x 16 tile (64 groups at N = 4096) against unswapped narrow tiles, X on wgmma's
# 64-row side (three quarters zeros from the copy engine) and the weight's rows on N (32 or
# 16 columns: 128 or 256 groups at N = 4096); warm and cold L2; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe185.txt
one() { local tag=$1 dt=$2 sz=$3; shift 3
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype $dt --out $dt --size $sz "$@" 2>/dev/null | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"][:70], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag $dt $sz" || echo "$tag $dt $sz: no JSON"
}
T="--algo tensor_core --algo wgmma_tma:BM=64,BN=32,WGN=32,STAGES=8,INFLIGHT=1 --algo wgmma_tma:BM=64,BN=32,WGN=32,STAGES=12,INFLIGHT=1 --algo wgmma_tma:BM=64,BN=16,WGN=16,STAGES=12,INFLIGHT=1 --algo wgmma_tma:BM=64,BN=16,WGN=16,STAGES=16,INFLIGHT=1 --algo wgmma_tma:BM=64,BN=32,WGN=32,STAGES=8"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do
for dt in bf16 f16; do for sz in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096 8x4096x4096; do
  one "$round warm" $dt $sz $T
  one "$round cold" $dt $sz $T --cold-l2
done; done; done
args=""; for dt in bf16 f16; do for sz in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096 8x4096x4096; do args="$args $dt:$sz:NT $dt:$sz:NT:cold"; done; done
python3 bench/cublas.py $args 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
