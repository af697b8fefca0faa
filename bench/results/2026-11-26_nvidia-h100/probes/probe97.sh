#!/usr/bin/env bash
# Probe 97: tensor_core_tf32x3 by the rules as shipped (its wgmma rules taking slices from 128
# values of K), at shapes no Llama row has, each layout that differs; cuBLAS fp32 beside.
source .gpu/setup.sh
P=$OUT/probe97.txt
run() { local sz=$1 tr=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 250 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe97.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' $sz $tr || echo "$sz $tr : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sz in 100x3000x1000 100x3000x777 64x5120x1000 8x3000x1000 16x6144x4096 12x4096x4096 100x5000x3000; do
  for tr in NN NT; do run $sz $tr tensor_core_tf32x3 auto; done
done
python3 bench/cublas.py fp32:100x3000x1000 fp32:100x3000x1000:NT fp32:100x3000x777:NT fp32:64x5120x1000:NT fp32:8x3000x1000:NT fp32:16x6144x4096:NT fp32:12x4096x4096:NT fp32:100x5000x3000 fp32:100x5000x3000:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
