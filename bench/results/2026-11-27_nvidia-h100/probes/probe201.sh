#!/usr/bin/env bash
# Probe 201 (after bench/device_session.sh built build-gpu at this commit).
# A: fp32 strided batches N T (512 x 128x128x64, 64 x 512x512x64): step 7 tiles and forms
#    against the batch rule, CLBlast's strided batch in the same command (issue #16: >= 2x).
# B: fp32 at M = 128 (N T): step 7's tile, K step, registers and splits against the rule;
#    CLGEMM_TIME_LAST_KERNEL_ONLY=1 times the split's reduction alone; cuBLAS fp32 beside.
source .gpu/setup.sh
P=$OUT/probe201.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:80], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:100], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
W=warp_tiled
for b in "512 128x128x64" "64 512x512x64"; do
  set -- $b
  for rep in 1 2; do
  build-gpu/clgemm --device nvidia --format json -q --iters 50 --trans NT --batch $1 --size $2 --algo auto \
    --algo "$W:BK=16,READT=1" \
    --algo "$W:BK=16,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1,MAXNREG=128,BM=64,BN=128" \
    --algo "$W:BK=16,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1,BM=128,BN=64" \
    --algo "$W:BK=16,READT=1,PREFETCH=1,BM=64,BN=64,TM=4,TN=8,WM=32,WN=32,CLAMP=1" \
    --algo "$W:BK=32,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1,MAXNREG=128" \
    --algo "$W:BK=16,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=0,MAXNREG=128" \
    --algo "$W:BK=16,READT=1,PREFETCH=0,WM=64,WN=32,CLAMP=1,MAXNREG=128" \
    2>>$OUT/probe201.err | show "batch $1x$2 rep$rep"
  done
done
for s in 128x4096x4096 128x4096x14336 128x6144x4096; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --size $s --algo auto \
    --algo "$W:SWAP=1,READT=0,SPLITK=4" --algo "$W:SWAP=1,READT=0,SPLITK=8" \
    --algo "$W:SWAP=1,READT=0,BK=16,SPLITK=4" --algo "$W:SWAP=1,READT=0,MAXNREG=128,SPLITK=8" \
    --algo "$W:SWAP=1,READT=0,MAXNREG=128,SPLITK=4" \
    --algo "$W:SWAP=1,READT=0,BM=128,BN=64,WM=64,WN=32,SPLITK=2" \
    --algo "$W:SWAP=1,READT=0,BM=128,BN=64,WM=64,WN=32,SPLITK=4" \
    2>>$OUT/probe201.err | show "$s"
  CLGEMM_TIME_LAST_KERNEL_ONLY=1 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --size $s --algo auto 2>>$OUT/probe201.err | show "$s last-kernel-only"
done
python3 bench/cublas.py f32:128x4096x4096:NT f32:128x4096x14336:NT f32:128x6144x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
