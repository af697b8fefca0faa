#!/usr/bin/env bash
# Probe 205 (after bench/device_session.sh built build-gpu): the floor of a small step 10 call.
# bf16 N T at M = 16..128 with N = K = 4096 runs 0.015-0.02 ms where cuBLAS runs 0.011-0.017,
# nearly flat in M: a fixed cost per call?  Tiny problems (64^3, 128x128x512) give the floor;
# CLGEMM_TIME_LAST_KERNEL_ONLY=1 the kernel alone; the same process twice, and a fresh one,
# shows the spread between processes (probe203: 15-20%).
source .gpu/setup.sh
P=$OUT/probe205.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:40], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:110], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for s in 64x64x64 128x128x512 16x4096x4096 48x4096x4096 128x4096x4096; do
  for rep in 1 2 3; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 200 --trans NT --dtype bf16 --out bf16 --size $s --algo tensor_core 2>>$OUT/probe205.err | show "rep$rep bf16 $s"
  done
  CLGEMM_TIME_LAST_KERNEL_ONLY=1 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 200 --trans NT --dtype bf16 --out bf16 --size $s --algo tensor_core 2>>$OUT/probe205.err | show "kernel-only bf16 $s"
done
python3 bench/cublas.py bf16:64x64x64:NT bf16:128x128x512:NT bf16:16x4096x4096:NT bf16:48x4096x4096:NT bf16:128x4096x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
