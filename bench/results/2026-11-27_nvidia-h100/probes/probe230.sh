#!/usr/bin/env bash
# Probe 230 (after bench/device_session.sh built build-gpu): tf32x3 at M <= 16 with B split in
# local memory (PACKB=2, rounding warpgroup or consumers) against the rule's pre-pass, N T
# (and N N once), warm and cold; splits as the rule's split_per_cu gives them.
source .gpu/setup.sh
P=$OUT/probe230.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:100], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), r.get("error"), (r.get("note") or r.get("message") or "")[5:100], flush=True)' "$1" || echo "$1: no JSON"; }
R="wgmma_tma:BM=64,BN=16,WGN=16,STAGES=8,SWAP=1,SPLIT=1,PACKA=3"
W="wgmma_tma:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
for sk in "16x4096x4096 2 4" "16x6144x4096 1 2" "16x28672x4096 1 1" "16x4096x14336 2 4" "8x4096x4096 2 4" "3x4096x4096 2 4"; do
  set -- $sk
  for cold in "" "--cold-l2"; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 $cold --trans NT --size $1 \
    --algo tensor_core_tf32x3 --algo "$R,SPLITK=$2" --algo "$R,PACKB=2,ROUNDER=1,SPLITK=$2" --algo "$R,PACKB=2,SPLITK=$2" \
    --algo "$W,SPLITK=$3" --algo "$W,SPLITK=$2" 2>>$OUT/probe230.err | show "rep$rep $1 ${cold:-warm}"
  done
done
build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --size 16x4096x4096 \
  --algo tensor_core_tf32x3 --algo "$R,SPLITK=2" --algo "$R,PACKB=2,ROUNDER=1,SPLITK=2" --algo "$W,SPLITK=4" 2>>$OUT/probe230.err | show "rep$rep NN 16x4096x4096"
done
} > $P 2>&1
cat $P
