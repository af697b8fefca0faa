#!/usr/bin/env bash
# Probe 84: what auto and tensor_core_tf32x3 choose after 549092d (uneven splits by rounds,
# slices from 128): the skinny shapes of probe83 and the Llama M = 128 ones, against cuBLAS.
source .gpu/setup.sh
P=$OUT/probe84.txt
run() { local sz=$1 tr=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe84.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("params"), flush=True)' $sz $tr || echo "$sz $tr : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in "100x3000x1000 NN" "100x3000x1000 NT" "64x5120x1000 NT" "100x3000x777 NN" "128x4096x1000 NT" "32x8192x1000 NT" "128x4096x4096 NT" "128x6144x4096 NT" "128x4096x14336 NT" "128x28672x4096 NT" "96x2560x2560 NN"; do set -- $s
  run $1 $2 auto tensor_core_tf32x3
done
python3 bench/cublas.py fp32:100x3000x1000 fp32:100x3000x1000:NT fp32:64x5120x1000:NT fp32:100x3000x777 fp32:128x4096x1000:NT fp32:32x8192x1000:NT fp32:128x4096x4096:NT fp32:128x6144x4096:NT fp32:128x4096x14336:NT fp32:128x28672x4096:NT fp32:96x2560x2560 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
