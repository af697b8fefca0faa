#!/usr/bin/env bash
# Probe 202 (after bench/device_session.sh built build-gpu at this commit): the split-K
# reduction in 32 x 32 blocks (4321e45) at the fp32 shapes whose rules split K in two
# launches; CLGEMM_TIME_LAST_KERNEL_ONLY=1 times the reduction alone (probe201: 13.6 us at
# 128x4096x4096, 20.9 at 128x6144x4096); cuBLAS fp32 beside.
source .gpu/setup.sh
P=$OUT/probe202.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:40], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:150], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
jobs=""
for job in "NT 128x4096x4096" "NT 128x4096x14336" "NT 128x6144x4096" "NT 128x28672x4096" "NT 112x4096x4096" "NN 64x4096x4096" "NT 64x4096x4096" "NT 100x3000x1000" "NN 128x4096x4096"; do
  set -- $job
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans $1 --size $2 --algo auto 2>>$OUT/probe202.err | show "$1 $2"
  CLGEMM_TIME_LAST_KERNEL_ONLY=1 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans $1 --size $2 --algo auto 2>>$OUT/probe202.err | show "$1 $2 last-kernel-only"
  jobs="$jobs fp32:$2:$1"
done
python3 bench/cublas.py $jobs 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
