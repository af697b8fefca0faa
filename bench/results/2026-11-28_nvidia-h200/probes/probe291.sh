#!/usr/bin/env bash
# Probe 291 (H200): the TF32 batch rules for M <= 128 (4fe3747, 3 slots) as tensor_core runs
# them, against cuBLAS bmm in the same command; three rounds.  (As run, its cuBLAS step sent
# stderr into the JSON it parsed; fixed here to 2>/dev/null, as the second command ran it.)
source bench/probes/probe.sh probe291
{
probe_header
for r in 1 2 3; do
  for t in NN NT; do
    probe_run "r$r tf32 $t b512 128x128x64" --size 128x128x64 --batch 512 --trans $t --iters 100 --algo tensor_core
  done
done
python3 bench/cublas.py tf32:128x128x64:NN:b512:r100 tf32:128x128x64:NT:b512:r100 \
  tf32:128x128x64:NN:b512:r100 tf32:128x128x64:NT:b512:r100 2>/dev/null |
  python3 -c 'import json,sys; [print("cublas", r["mode"], r["trans"], r["batch"], r["ms_median"], r["ms_min"]) for r in json.load(sys.stdin)["rows"]]'
} > $P 2>&1
cat $P
