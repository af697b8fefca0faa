#!/usr/bin/env bash
# Probe 107: fp32 auto batches without the pipeline (PREFETCH=0, which probe106 found faster at
# K = 64): K slices of 8..64, warp shapes, every transpose, against the rule; CLBlast beside.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe107.txt
run() { local sz=$1 tr=$2 b=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --trans $tr --size $sz --batch $b --iters 100 --format json "${a[@]}" 2>>$OUT/probe107.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' "$sz $tr $b" || echo "$sz $tr $b : no JSON"; }
W=warp_tiled:READT=1,PREFETCH=0
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for job in "128x128x64 512" "512x512x64 64"; do set -- $job
  for tr in NT NN TN TT; do
  run $1 $tr $2 auto $W,BK=8 $W,BK=16 $W,BK=32 $W,BK=64 $W,BK=16,WM=64,WN=32 $W,BK=32,WM=64,WN=32 \
    $W,BK=16,CLAMP=1 auto
  done
done
for job in "512x512x128 64" "256x256x64 256" "1024x1024x64 16"; do set -- $job
  run $1 NT $2 auto $W,BK=16 $W,BK=32 auto
done
} > $P 2>&1
tail -3 $P
