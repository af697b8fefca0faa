#!/usr/bin/env bash
# Probe 222 (after build-gpu is built at 775f693): what tensor_core chose for TF32 N T at
# 16 < M <= 64 with the rules' wide forms, and its time, with cuBLAS.
source .gpu/setup.sh
P=$OUT/probe222.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    n=(r.get("note") or r.get("message") or ""); w=n.find("the wide form")
    print(sys.argv[1], r["algorithm"][:40], r["status"], r.get("ms_median"), r.get("ms_min"), "|", n[5:80], "| WIDE" if w>=0 else "", flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for s in 48x28672x4096 64x11008x4096 64x6144x4096 32x11008x4096 24x4096x4096; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --size $s --algo tensor_core 2>>$OUT/probe222.err | show "tf32 $s"
done
} > $P 2>&1
tail -3 $P
