#!/usr/bin/env bash
# Probe 199 (after bench/device_session.sh built build-gpu at this commit): TF32 with the
# rounding warpgroup loading B itself (ROUNDER=2) against the rules' ROUNDER=1, the rule's own
# tile and split otherwise (read from tensor_core's row); cuBLAS tf32 beside.  At 4096^3 the
# rule's pre-pass against 128-wide tiles with ROUNDER=2.
source .gpu/setup.sh
P=$OUT/probe199.txt
run() { # label, args...
  local label=$1; shift
  build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe199.err | python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:90], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:140], flush=True)' "$label" || echo "$label: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
jobs=""
for s in 16x4096x4096 16x4096x14336 32x4096x4096 64x4096x4096 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096 512x4096x4096; do
  rule=$(build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 3 --trans NT --size $s --algo tensor_core 2>/dev/null | python3 -c '
import json,sys,re
r=json.load(sys.stdin)["results"][0]["rows"][0]; m=re.search(r"runs (wgmma_tma:\S+)", r.get("note") or ""); print(m.group(1) if m else "")')
  r2=${rule/ROUNDER=1/ROUNDER=2}
  it=$([ ${s%%x*} -le 128 ] && echo 100 || echo 30)
  run "$s" --iters $it --trans NT --size $s --algo tensor_core --algo "$r2"
  run "$s again" --iters $it --trans NT --size $s --algo tensor_core --algo "$r2"
  jobs="$jobs tf32:$s:NT"
done
s=4096x4096x4096
run "$s" --iters 20 --trans NT --size $s --algo tensor_core --algo 'wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,GM=16,PACKA=3,PACKB=2,ROUNDER=2' --algo 'wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,GM=16,PACKA=3,PACKB=2,ROUNDER=1' --algo 'wgmma_tma:BM=128,BN=256,WGN=256,STAGES=4,GM=16,PACKA=1,PACKB=2,ROUNDER=2' --algo 'wgmma_tma:BM=128,BN=192,WGN=64,STAGES=4,GM=16,PACKA=1,PACKB=2,ROUNDER=2'
python3 bench/cublas.py $jobs tf32:4096x4096x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
