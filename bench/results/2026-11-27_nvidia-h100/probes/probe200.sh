#!/usr/bin/env bash
# Probe 200 (after bench/device_session.sh built build-gpu at this commit): why ROUNDER=2 ran
# 1.3-3.5x slower than ROUNDER=1 in probe199.  Hypothesis: each rounder's arrive (a release)
# waits for the next slice's loads in flight, so every slice pays a load's latency.  Variants
# through CLGEMM_BUILD_OPTIONS: RB_GROUP slices loaded before their writes (1, 2, 4), and
# RB_RELAXED=1 (a relaxed arrive, diagnostic only).  Rule = the shape's tensor_core row.
source .gpu/setup.sh
P=$OUT/probe200.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:60], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:120], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for s in 16x4096x4096 128x4096x4096 128x4096x14336 512x4096x4096 4096x4096x4096; do
  if [ $s = 4096x4096x4096 ]; then rule='wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,GM=16,PACKA=3,PACKB=2,ROUNDER=1'; it=20
  else
  rule=$(build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 3 --trans NT --size $s --algo tensor_core 2>/dev/null | python3 -c '
import json,sys,re
r=json.load(sys.stdin)["results"][0]["rows"][0]; m=re.search(r"runs (wgmma_tma:\S+)", r.get("note") or ""); print(m.group(1) if m else "")'); it=100
  fi
  r2=${rule/ROUNDER=1/ROUNDER=2}
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters $it --trans NT --size $s --algo "$rule" 2>>$OUT/probe200.err | show "$s R1"
  for v in "-DRB_GROUP=1" "-DRB_GROUP=2" "-DRB_GROUP=4" "-DRB_GROUP=2 -DRB_RELAXED=1" "-DRB_GROUP=4 -DRB_RELAXED=1"; do
    CLGEMM_BUILD_OPTIONS="$v" build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters $it --trans NT --size $s --algo "$r2" 2>>$OUT/probe200.err | show "$s R2 $v"
  done
done
} > $P 2>&1
tail -3 $P
