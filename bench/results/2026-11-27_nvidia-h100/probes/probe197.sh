#!/usr/bin/env bash
# Probe 197: TF32 at 16 < M <= 64, N T: the M <= 128 rule (64 x 128 tiles, weight rounded in
# registers, X by the rounding warpgroup, split by 0.73 per CU) against 64 x 32 and 64 x 64
# tiles unsplit and in 2 or 4 slices (probe195/196 found the 16-bit 64 x 128 tile slow where
# M is well below 128); cuBLAS beside.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe197.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gflops"), "|", (r.get("note") or r.get("message") or "")[-90:], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
T=SWAP=1,PACKA=3,PACKB=2,ROUNDER=1
jobs=""
for M in 32 64; do
  for NK in 4096x4096 4096x14336 28672x4096; do
    a="--algo tensor_core"
    for s in 1 2 4; do a="$a --algo wgmma_tma:BM=64,BN=$M,WGN=$M,STAGES=8,$T,SPLITK=$s"; done
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --size ${M}x$NK $a 2>>$OUT/err.txt | show "tf32 NT ${M}x$NK"
    jobs="$jobs tf32:${M}x$NK:NT"
  done
done
python3 bench/cublas.py $jobs 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
