#!/usr/bin/env bash
# Probe 213 (after build-gpu is built): 16-bit 128 < M <= 512 with a wide N.  The M <= 512 rule
# (128 x 128, unswapped) needs several rounds of the SMs there; probe212 found the swapped
# 128 x 256 tile 10% faster at 256x28672x4096 and slower wherever the rule's blocks fit one
# round.  More widths and M, twice, with cuBLAS, N T (and N N once).
source .gpu/setup.sh
P=$OUT/probe213.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:70], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:100], flush=True)' "$1" || echo "$1: no JSON"; }
Wd=wgmma_tma:BM=128,BN=256,WGN=256,STAGES=4,INFLIGHT=1,GM=32,SWAP=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for s in 256x28672x4096 384x28672x4096 512x28672x4096 256x14336x4096 512x14336x4096 256x11008x4096 384x11008x4096 200x28672x4096 512x8192x4096 256x16384x4096; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --dtype bf16 --out bf16 --size $s --algo tensor_core --algo $Wd 2>>$OUT/probe213.err | show "r$rep bf16 $s"
  done
done
build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NN --dtype bf16 --out bf16 --size 256x28672x4096 --algo tensor_core --algo $Wd 2>>$OUT/probe213.err | show "NN bf16 256x28672x4096"
python3 bench/cublas.py bf16:256x28672x4096:NT bf16:384x28672x4096:NT bf16:512x28672x4096:NT bf16:256x14336x4096:NT bf16:512x14336x4096:NT bf16:256x11008x4096:NT bf16:384x11008x4096:NT bf16:200x28672x4096:NT bf16:512x8192x4096:NT bf16:256x16384x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
