#!/usr/bin/env bash
# Where an odd size's time goes: one tile configuration of warp_tiled at an aligned size and
# with M, N or K alone made odd, for each kernel directory given (to compare kernel
# versions), with the registers and spills NVIDIA's compiler reports.
#   usage: bash bench/gpu_edge_probe.sh CLGEMM KERNEL_DIR...
set -uo pipefail
clgemm=$1; shift
big="BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16"
mid="BM=64,BN=128,BK=16,TM=4,TN=8,WM=64,WN=16"
row() {  # dir cfg size
    CLGEMM_KERNEL_DIR=$1 $clgemm --device nvidia --no-baseline --size $3 --algo "warp_tiled:$2" \
        --format json --quiet | python3 -c '
import json, sys
r = json.load(sys.stdin)["results"][0]; x = r["rows"][0]
print("%-12s %-44s %5dx%5dx%5d %-4s %9.0f GFLOP/s %8.3f ms" % (sys.argv[1], sys.argv[2], r["M"], r["N"],
      r["K"], x["status"], x["gflops"] or 0, x["ms_median"] or 0))' "$1" "$2"
}
for dir in "$@"; do
    for cfg in $big $mid; do
        echo "-- $dir $cfg: $(CLGEMM_KERNEL_DIR=$dir CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 \
            CLGEMM_BUILD_OPTIONS=-cl-nv-verbose $clgemm --device nvidia --no-baseline --size 256 \
            --algo "warp_tiled:$cfg" --iters 1 --warmup 0 --quiet --format csv 2>&1 |
            grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill (stores|loads)" | sort -u | tr '\n' ' ')"
    done
    for s in 4096 4095; do row $dir $big $s; done
    for s in 1024 1000 1000x1024x1024 1024x1000x1024 1024x1024x1000 1024x1024x1008; do
        row $dir $mid $s
    done
done
