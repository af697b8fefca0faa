#!/usr/bin/env bash
# Probe 190: TF32 at M <= 16, N T: the rule (128-row blocks of the weight, 16 columns, split by
# 0.97 blocks per CU) against 64-row blocks with 11 or 16 stages, splits 1..4 (probe186 found
# 64-row blocks in 2 slices ahead of 128 rows in 4 at M = 128, N = 4096); cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe190.txt
B128=wgmma_tma:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
B64=wgmma_tma:BM=64,BN=16,WGN=16,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for sz in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096 8x4096x4096; do
  a="--algo tensor_core"; for s in 1 2 3 4; do a="$a --algo $B128,SPLITK=$s --algo $B64,STAGES=11,SPLITK=$s --algo $B64,STAGES=16,SPLITK=$s"; done
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --size $sz $a 2>/dev/null | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or "")[:100], flush=True)' "tf32 NT $sz" || echo "$sz: no JSON"
done
python3 bench/cublas.py tf32:16x4096x4096:NT tf32:16x6144x4096:NT tf32:16x4096x14336:NT tf32:16x28672x4096:NT tf32:8x4096x4096:NT 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
