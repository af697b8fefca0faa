#!/usr/bin/env bash
# Probe 194: bf16 at M = 16 warm (0.70-0.82 of cuBLAS at 16x4096x4096 in llama-4/5, where the
# M <= 128 rule's 64 x 128 tile ran 128x4096x4096 in about the time of the M <= 16 rule's
# 64 x 16 at 16x4096x4096): how the time scales with N (the groups) and which tile, stage
# count, wgmmas in flight or split serves M = 16; cuBLAS beside.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe194.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), "|", (r.get("note") or r.get("message") or "")[:80], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
T=wgmma_tma:BM=64,WGN
a="--algo tensor_core"
for v in "16,BN=16,STAGES=16,INFLIGHT=2" "16,BN=16,STAGES=16,INFLIGHT=3" "16,BN=16,STAGES=8,INFLIGHT=1" "16,BN=16,STAGES=16,INFLIGHT=1,SPLITK=2" \
         "32,BN=32,STAGES=12,INFLIGHT=1" "64,BN=64,STAGES=8,INFLIGHT=1" "128,BN=128,STAGES=8,INFLIGHT=1" "128,BN=128,STAGES=4,INFLIGHT=1" "16,BN=16,STAGES=4,INFLIGHT=1"; do
  a="$a --algo $T=$v,SWAP=1"
done
a="$a --algo wgmma_tma:BM=128,BN=16,WGN=16,STAGES=8,INFLIGHT=1,SWAP=1"
for sz in 16x4096x4096 16x2048x4096 16x8192x4096 16x4096x8192; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype bf16 --out bf16 --size $sz $a 2>&1 | show "bf16 $sz"
done
python3 bench/cublas.py bf16:16x4096x4096:NT:r100 bf16:16x2048x4096:NT:r100 bf16:16x8192x4096:NT:r100 bf16:16x4096x8192:NT:r100 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
