#!/usr/bin/env bash
# Probe 186: TF32 at M <= 128, N T (X W^T): the rule (128-row tiles of the weight, swapped,
# split by 0.73 blocks per CU) against 64-row tiles and every split 1..6, 6 or 8 stages, at
# the Llama shapes and two others; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe186.txt
one() { local tag=$1 sz=$2; shift 2
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --size $sz "$@" 2>/dev/null | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"][:80], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or "")[:120], flush=True)' "$tag $sz" || echo "$tag $sz: no JSON"
}
B128=wgmma_tma:BM=128,BN=128,WGN=128,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
B64=wgmma_tma:BM=64,BN=128,WGN=128,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096 100x4096x4096 128x11008x4096; do
  a="--algo tensor_core"
  for s in 1 2 3 4 5 6; do a="$a --algo $B128,STAGES=6,SPLITK=$s --algo $B64,STAGES=8,SPLITK=$s"; done
  a="$a --algo $B64,STAGES=12,SPLITK=2 --algo $B64,STAGES=12,SPLITK=3"
  one tf32 $sz $a
done
python3 bench/cublas.py tf32:128x4096x4096:NT tf32:128x6144x4096:NT tf32:128x4096x14336:NT tf32:128x28672x4096:NT tf32:100x4096x4096:NT tf32:128x11008x4096:NT 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
