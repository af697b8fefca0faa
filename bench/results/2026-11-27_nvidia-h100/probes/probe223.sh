#!/usr/bin/env bash
# Probe 223: per-row 1-D TMA boxes (ROWMAP) for operands whose rows do not lie on 16 bytes,
# against the tight copy, bf16.  Builds this tree (branch rowmap, uncommitted probe code).
source .gpu/setup.sh
P=$OUT/probe223.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:34], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("params") or "")[:70], (r.get("note") or r.get("message") or "")[:150], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 "$@" 2>>$OUT/probe223.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for d in bf16 f16; do
run "$d 4096^3 pad"        --dtype $d --size 4096 --algo tensor_core --algo wgmma_tma:ROWMAP=1 --algo wgmma_tma:ROWMAP=2 --algo wgmma_tma:ROWMAP=3
run "$d 4096x4096x4095 t0" --dtype $d --size 4096x4096x4095 --ld-pad 0 --algo tensor_core --algo wgmma_tma:ROWMAP=1
run "$d 4095^3 t0"         --dtype $d --size 4095 --ld-pad 0 --algo tensor_core --algo wgmma_tma:ROWMAP=3
run "$d 4095^3 pad"        --dtype $d --size 4095 --algo tensor_core
run "$d 1000x3000x777 t0"  --dtype $d --size 1000x3000x777 --ld-pad 0 --algo tensor_core --algo wgmma_tma:ROWMAP=1 --algo wgmma_tma:ROWMAP=3
run "$d 1000x3000x777 pad" --dtype $d --size 1000x3000x777 --algo tensor_core
done
run "bf16 NT 4095^3 t0 (K tail garbage both)" --dtype bf16 --trans NT --size 4095 --ld-pad 0 --algo tensor_core --algo wgmma_tma:ROWMAP=3
run "bf16 NT 4096x4096x4095 t0 A only" --dtype bf16 --trans NT --size 4096x4096x4095 --ld-pad 0 --algo wgmma_tma:ROWMAP=1
run "bf16 8192^3 pad" --dtype bf16 --size 8192 --algo tensor_core --algo wgmma_tma:ROWMAP=1 --algo wgmma_tma:ROWMAP=3
} > $P 2>&1
cat $P
