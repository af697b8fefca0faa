#!/usr/bin/env bash
# Probe 208 (after build-gpu is built): 16-bit at 16 < M <= 128 with a wide N.  The M <= 128
# rule (BM=64,BN=128, swapped) runs N / 64 groups: 448 at N = 28672, 3.4 rounds on 132 SMs,
# and 128x28672x4096 stayed at 0.94 of cuBLAS in llama-6.  A 128-row tile (half the groups,
# two consumers) or shallower rings (two groups per SM), twice, with cuBLAS beside.
source .gpu/setup.sh
P=$OUT/probe208.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:72], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:100], flush=True)' "$1" || echo "$1: no JSON"; }
W=INFLIGHT=1,GM=32,SWAP=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for s in 128x28672x4096 96x28672x4096 128x6144x4096 128x4096x4096 128x4096x14336 128x11008x4096; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype bf16 --out bf16 --size $s --algo tensor_core --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,$W --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=4,$W --algo wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,$W --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=3,$W 2>>$OUT/probe208.err | show "r$rep bf16 $s"
  done
done
python3 bench/cublas.py bf16:128x28672x4096:NT bf16:96x28672x4096:NT bf16:128x6144x4096:NT bf16:128x4096x4096:NT bf16:128x4096x14336:NT bf16:128x11008x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
