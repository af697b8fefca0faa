#!/usr/bin/env bash
# Probe 189: fp32 auto at M = 128, N T (the worst fp32 Llama rows, 0.79-0.80 of cuBLAS): the
# rule (step 7 swapped, 128 x 128, split by rounds) against 64-row blocks of the weight
# (64 x 128) and 64-column blocks of X (128 x 64, the M <= 64 rule's tile), splits 1..8.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe189.txt
V64=warp_tiled:SWAP=1,READT=0,BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16
VN64=warp_tiled:SWAP=1,READT=0,BM=128,BN=64,BK=8,TM=8,TN=8,WM=64,WN=32
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
  a="--algo auto"; for s in 1 2 3 4 6 8; do a="$a --algo $V64,SPLITK=$s --algo $VN64,SPLITK=$s"; done
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 30 --trans NT --size $sz $a 2>/dev/null | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "f32 NT $sz" || echo "$sz: no JSON"
done
} > $P 2>&1
tail -3 $P
