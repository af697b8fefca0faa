#!/usr/bin/env bash
# Probe 225: row boxes (ROWMAP) issued by the producer warp's 32 work-items, and whether a
# 1-D box may start off 16 bytes (ROWSHIFT moves every start by that many values: wrong
# results by design, the question is whether the copy faults).  bf16 N N.
source .gpu/setup.sh
P=$OUT/probe225.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:40], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("message") or "")[:150], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 "$@" 2>>$OUT/probe225.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
run "bf16 4096^3 pad" --dtype bf16 --size 4096 --algo tensor_core --algo wgmma_tma:ROWMAP=1
for a in ROWMAP=1,ROWPAR=1 ROWMAP=3,ROWPAR=1 ROWMAP=2,ROWPAR=1 ROWMAP=1,ROWSHIFT=8 ROWMAP=1,ROWSHIFT=8,ROWPAR=1 ROWMAP=1,ROWSHIFT=1 ROWMAP=1,ROWSHIFT=2 ROWMAP=1,ROWSHIFT=4; do
  run "bf16 4096^3 pad $a" --dtype bf16 --size 4096 --algo wgmma_tma:$a
done
run "bf16 4096x4096x4095 t0" --dtype bf16 --size 4096x4096x4095 --ld-pad 0 --algo tensor_core
run "bf16 4096x4096x4095 t0" --dtype bf16 --size 4096x4096x4095 --ld-pad 0 --algo wgmma_tma:ROWMAP=1
run "bf16 4096x4096x4095 t0" --dtype bf16 --size 4096x4096x4095 --ld-pad 0 --algo wgmma_tma:ROWMAP=1,ROWPAR=1
run "bf16 8192^3 pad" --dtype bf16 --size 8192 --algo tensor_core
run "bf16 8192^3 pad" --dtype bf16 --size 8192 --algo wgmma_tma:ROWMAP=1,ROWPAR=1
run "bf16 8192^3 pad" --dtype bf16 --size 8192 --algo wgmma_tma:ROWMAP=3,ROWPAR=1
} > $P 2>&1
cat $P; head -c 1500 $OUT/probe225.err
