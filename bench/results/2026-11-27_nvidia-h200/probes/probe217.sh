#!/usr/bin/env bash
# Probe 217 (an H200; after build-gpu is built): the H100's 16-bit wide forms (probes 208-214)
# on the H200, whose rules are the same but have none: each class's rule (tensor_core) against
# its wide form written out, at shapes where the rounds model takes it and at controls where
# it does not, twice, bf16 N T, with cuBLAS.
source .gpu/setup.sh
P=$OUT/probe217.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:70], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$1" || echo "$1: no JSON"; }
H=INFLIGHT=1,GM=32,SWAP=1
W128=wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,$H
W64=wgmma_tma:BM=128,BN=64,WGN=64,STAGES=6,$H
W32=wgmma_tma:BM=128,BN=32,WGN=32,STAGES=6,$H
W512=wgmma_tma:BM=128,BN=256,WGN=256,STAGES=4,$H
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for c in 128x28672x4096:$W128 128x11008x4096:$W128 128x6144x4096:$W128 48x28672x4096:$W64 64x11008x4096:$W64 64x6144x4096:$W64 32x11008x4096:$W32 24x28672x4096:$W32 200x28672x4096:$W512 256x11008x4096:$W512 512x14336x4096:$W512 384x11008x4096:$W512 256x4096x4096:$W512; do
    s=${c%%:*}; w=${c#*:}
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --dtype bf16 --out bf16 --size $s --algo tensor_core --algo $w 2>>$OUT/probe217.err | show "r$rep bf16 $s"
  done
done
python3 bench/cublas.py bf16:128x28672x4096:NT bf16:128x11008x4096:NT bf16:128x6144x4096:NT bf16:48x28672x4096:NT bf16:64x11008x4096:NT bf16:64x6144x4096:NT bf16:32x11008x4096:NT bf16:24x28672x4096:NT bf16:200x28672x4096:NT bf16:256x11008x4096:NT bf16:512x14336x4096:NT bf16:384x11008x4096:NT bf16:256x4096x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
