#!/usr/bin/env bash
# Probe 196: the new 16-bit rules for 16 < M <= 32 and 32 < M <= 64 (64 x 32 and 64 x 64
# tiles) against the M <= 128 rule's 64 x 128 tile (the former choice) at M the rules were
# not measured at and at the Llama widths, N T and N N, bf16 and f16; cuBLAS beside.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe196.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gflops"), "|", (r.get("note") or r.get("message") or "")[:60], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
OLD=wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1
jobs=""
for M in 17 24 32 33 48 64 80; do
  for NK in 4096x4096 4096x14336 28672x4096 6144x4096; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --dtype bf16 --out bf16 --size ${M}x$NK --algo tensor_core --algo $OLD 2>>$OUT/err.txt | show "bf16 NT ${M}x$NK"
    jobs="$jobs bf16:${M}x$NK:NT"
  done
done
for M in 24 48; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NN --dtype bf16 --out bf16 --size ${M}x4096x4096 --algo tensor_core --algo $OLD 2>>$OUT/err.txt | show "bf16 NN ${M}x4096x4096"
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --dtype f16 --out f16 --size ${M}x4096x4096 --algo tensor_core --algo $OLD 2>>$OUT/err.txt | show "f16 NT ${M}x4096x4096"
  jobs="$jobs bf16:${M}x4096x4096 f16:${M}x4096x4096:NT"
done
python3 bench/cublas.py $jobs 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
