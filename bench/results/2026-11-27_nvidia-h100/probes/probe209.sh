#!/usr/bin/env bash
# Probe 209 (after build-gpu is built at the commit with the 16-bit M <= 128 rule's wide form):
# what tensor_core chose and its time at shapes of the class, with cuBLAS.
source .gpu/setup.sh
P=$OUT/probe209.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:40], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:300], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for d in bf16 f16; do
for s in 128x28672x4096 96x28672x4096 128x11008x4096 100x14336x4096 128x6144x4096 128x4096x4096 80x8192x4096; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype $d --out $d --size $s --algo tensor_core 2>>$OUT/probe209.err | show "$d $s"
done
done
build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NN --dtype bf16 --out bf16 --size 128x28672x4096 --algo tensor_core 2>>$OUT/probe209.err | show "bf16 NN 128x28672x4096"
python3 bench/cublas.py bf16:128x28672x4096:NT bf16:96x28672x4096:NT bf16:128x11008x4096:NT bf16:100x14336x4096:NT bf16:128x6144x4096:NT bf16:80x8192x4096:NT f16:128x28672x4096:NT bf16:128x28672x4096:NN 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
