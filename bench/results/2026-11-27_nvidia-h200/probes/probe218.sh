#!/usr/bin/env bash
# Probe 218 (an H200; after build-gpu is built at the commit with the H200 rules' 16-bit wide forms): what
# tensor_core chose at 16 < M <= 512 and its time, with cuBLAS, N T.
source .gpu/setup.sh
P=$OUT/probe218.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    n=(r.get("note") or r.get("message") or ""); w=n.find("the wide form")
    print(sys.argv[1], r["algorithm"][:40], r["status"], r.get("ms_median"), r.get("ms_min"), "|", n[5:75], "| WIDE" if w>=0 else "", flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for s in 128x28672x4096 128x11008x4096 128x6144x4096 48x28672x4096 64x11008x4096 64x6144x4096 32x11008x4096 200x28672x4096 256x11008x4096 512x14336x4096 384x11008x4096 256x4096x4096; do
  for d in bf16 f16; do
    build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --dtype $d --out $d --size $s --algo tensor_core 2>>$OUT/probe218.err | show "$d $s"
  done
done
python3 bench/cublas.py bf16:128x28672x4096:NT bf16:128x11008x4096:NT bf16:128x6144x4096:NT bf16:48x28672x4096:NT bf16:64x11008x4096:NT bf16:64x6144x4096:NT bf16:32x11008x4096:NT bf16:200x28672x4096:NT bf16:256x11008x4096:NT bf16:512x14336x4096:NT bf16:384x11008x4096:NT bf16:256x4096x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
