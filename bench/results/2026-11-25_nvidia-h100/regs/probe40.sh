#!/usr/bin/env bash
# Probe 40: GEMM_C_MOVE as one int offset (the working tree): registers and fp32 speed.
source .gpu/setup.sh
T0=$(date +%s)
P=$OUT/probe40.txt
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
TILE=BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16,CLAMP=0
j() { local tag=$1; shift; timeout 200 build-gpu/clgemm --device nvidia --no-baseline --format json --iters 60 "$@" 2>>$OUT/probe40.err | python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], res["M"], res["N"], res["K"], res["trans"], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("params"), flush=True)' "$tag"; }
{
v() { echo "-- $*"; CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 60 build-gpu/clgemm --device nvidia --size 1024 --no-baseline --iters 3 "$@" 2>&1 | grep -E "Used|spill|FAIL|rror" | head -4; }
v --algo warp_tiled:$TILE
v --algo warp_tiled:$TILE,READT=1 --trans NT
v --algo warp_tiled:$TILE --epilogue bias_gelu --out bf16
v --algo block_tiled_vectorized
v --algo warp_tiled:BM=64,BN=128,BK=16,TM=8,TN=8,WM=32,WN=64,CLAMP=1
for rep in 1 2; do
  j r$rep --size 4096 --algo warp_tiled:$TILE --algo auto
  j r$rep --size 8192 --algo warp_tiled:$TILE
  j r$rep --size 4096 --trans NT --algo auto
  for s in 2048 1000 1024 3000 3072 4095 1000x3000x777 512 256; do j r$rep --size $s --algo auto; done
  for s in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336 4096x6144x4096; do j r$rep --size $s --trans NT --algo auto; done
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -3 $P
