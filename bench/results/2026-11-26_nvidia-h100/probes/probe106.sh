#!/usr/bin/env bash
# Probe 106: fp32 auto N T batches (issue #16 asks 2x CLBlast; the rule reaches 1.7x): warp
# shapes, padding of the transposed tiles, no prefetch, against the rule, CLBlast beside.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe106.txt
run() { local sz=$1 tr=$2 b=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --trans $tr --size $sz --batch $b --iters 100 --format json "${a[@]}" 2>>$OUT/probe106.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), flush=True)' "$sz $tr $b" || echo "$sz $tr $b : no JSON"; }
W=warp_tiled:READT=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for job in "128x128x64 512" "512x512x64 64"; do set -- $job
  run $1 NT $2 auto $W,BK=16,APAD=0 $W,BK=16,APAD=8 $W,BK=16,PREFETCH=0 \
    $W,BK=16,WM=64,WN=32 $W,BK=16,WM=32,WN=64 $W,BK=8,WM=64,WN=32 $W,BK=16,TM=4,TN=8,BM=64,WM=32,WN=32 \
    $W,BK=16,BM=64,BN=64,TM=4,TN=4,WM=32,WN=16 $W,BK=32,BM=64,BN=64,TM=4,TN=4,WM=32,WN=16 auto
done
} > $P 2>&1
tail -3 $P
