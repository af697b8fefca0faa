#!/usr/bin/env bash
# Probe 65 (870efed): TF32 at M = 16 and 128 now that step 10's split is cheaper (probe62):
# narrower row tiles (BM = 64: twice the blocks, each a consumer warpgroup) with and without
# the rounding warpgroup, and the splits around the rules' counts, NT, the Llama widths.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$OUT/probe65.txt
run() { local tag=$1 sz=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 300 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size $sz --iters 100 --format json "${a[@]}" 2>>$OUT/probe65.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), (r.get("note") or "")[:70], flush=True)' $tag $sz; }
W="wgmma_tma"
T16="$W:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
B16="$W:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
C16="$W:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,PACKA=3,PACKB=2"
T="$W:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
T5="$W:BM=128,BN=128,WGN=128,STAGES=5,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
T64="$W:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
{
for rep in 1 2; do
  for sz in 16x4096x4096 16x6144x4096 16x4096x14336; do
    a=(tensor_core)
    for s in 2 3 4 6 8; do a+=("$T16,SPLITK=$s"); done
    for s in 1 2 3 4; do a+=("$B16,SPLITK=$s" "$C16,SPLITK=$s"); done
    run a$rep $sz "${a[@]}"
  done
  for sz in 128x4096x4096 128x6144x4096; do
    a=(tensor_core)
    for s in 2 3 4; do a+=("$T5,SPLITK=$s" "$T64,SPLITK=$s"); done
    a+=("$T,SPLITK=3,GM=1" "$T,SPLITK=2,GM=1")
    run b$rep $sz "${a[@]}"
  done
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -1 $P
