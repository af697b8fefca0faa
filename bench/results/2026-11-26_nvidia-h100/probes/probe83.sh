#!/usr/bin/env bash
# Probe 83: fp32 auto at skinny shapes whose K no split cuts evenly (K = 1000, 777): the rule's
# split model leaves them unsplit; the same step 7 split 2-8 ways (a shorter last slice is a
# second launch), against cuBLAS in the same command.
source .gpu/setup.sh
P=$OUT/probe83.txt
run() { local sz=$1 tr=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe83.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("params"), flush=True)' $sz $tr || echo "$sz $tr : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in "100x3000x1000 NN" "100x3000x1000 NT" "64x5120x1000 NT" "100x3000x777 NN" "128x4096x1000 NT" "32x8192x1000 NT"; do set -- $s
  run $1 $2 auto "warp_tiled:READT=1,SPLITK=2" "warp_tiled:READT=1,SPLITK=3" "warp_tiled:READT=1,SPLITK=4" "warp_tiled:READT=1,SPLITK=5" "warp_tiled:READT=1,SPLITK=8"
done
python3 bench/cublas.py fp32:100x3000x1000 fp32:100x3000x1000:NT fp32:64x5120x1000:NT fp32:100x3000x777 fp32:128x4096x1000:NT fp32:32x8192x1000:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
