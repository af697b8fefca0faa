#!/usr/bin/env bash
# Step 8's accuracy modes on the GPU: tf32x3 with and without PROMOTE (per-k-step partial
# sums added in fp32), beside warp_tiled (fp32) and CLBlast, with registers and spills.
#   usage: bash bench/gpu_tensor_probe.sh CLGEMM [SIZES]
set -uo pipefail
clgemm=$1
sizes=${2:-"4096 8192"}
regs() {
    CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose \
        $clgemm --device nvidia --no-baseline --size 256 --algo "$1" --iters 1 --warmup 0 \
        --quiet --format csv 2>&1 |
        grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill (stores|loads)" | sort -u | tr '\n' ' '
}
variants="tensor_core_tf32x3:WM=64,WN=64,TM=32,TN=4
tensor_core_tf32x3:WM=64,WN=64,TM=32,TN=4,PROMOTE=0
tensor_core_tf32x3:WM=64,WN=32,TM=16,TN=4
tensor_core_tf32x3:WM=32,WN=64,TM=16,TN=4
tensor_core:WM=64,WN=64,TM=32,TN=4
tensor_core:WM=64,WN=64,TM=32,TN=4,PROMOTE=1"
for v in $variants; do echo "-- $v: $(regs $v)"; done
for n in $sizes; do
    args=()
    for v in $variants; do args+=(--algo "$v"); done
    $clgemm --device nvidia --size $n --algo warp_tiled "${args[@]}" --format json --quiet |
        python3 -c '
import json, sys
for res in json.load(sys.stdin)["results"]:
    for r in res["rows"]:
        g = r["gflops"] or 0
        print("%5d %-52s %9.0f GFLOP/s  err %.2e  %-7s %s" % (res["M"], r["algorithm"], g,
              r["error"] if r["error"] is not None else -1, r["precision"], r["status"]))'
done
