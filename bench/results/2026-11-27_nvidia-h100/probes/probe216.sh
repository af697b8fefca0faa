#!/usr/bin/env bash
# Probe 216 (after build-gpu is built): fp32 auto at 128 < M <= 512, N T.  The rule (step 7
# swapped, split by rounds of blocks per compute unit) runs 300x5120x5120's 120 blocks unsplit
# (0.553 ms against cuBLAS 0.360 in probe215), but its kernel runs two groups per SM: the
# model's "round" may be 264 blocks, not 132.  Splits 1-4 written out beside auto, twice.
source .gpu/setup.sh
P=$OUT/probe216.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    n=(r.get("note") or r.get("message") or ""); i=n.find("SPLITK")
    print(sys.argv[1], r["algorithm"][:50], r["status"], r.get("ms_median"), r.get("ms_min"), "|", n[i:i+9] if i>=0 else "", flush=True)' "$1" || echo "$1: no JSON"; }
S=warp_tiled:SWAP=1,READT=0
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for s in 300x5120x5120 512x4096x4096 384x4096x4096 256x4096x4096 512x11008x4096 200x6144x4096 512x5120x5120 160x4096x4096; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 20 --trans NT --size $s --algo auto --algo $S,SPLITK=1 --algo $S,SPLITK=2 --algo $S,SPLITK=3 --algo $S,SPLITK=4 2>>$OUT/probe216.err | show "r$rep fp32 $s"
  done
done
python3 bench/cublas.py fp32:300x5120x5120:NT fp32:512x4096x4096:NT fp32:384x4096x4096:NT fp32:256x4096x4096:NT fp32:512x11008x4096:NT fp32:200x6144x4096:NT fp32:512x5120x5120:NT fp32:160x4096x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
