#!/usr/bin/env bash
# Probe 109: (1) fp32 auto batches of taller problems under 4 GFLOP each (HEAD: the loosest
# batch class's rule) and above (auto's own choice); (2) N T batch forms without the pipeline
# at other tiles, for issue #16's 2x CLBlast.  CLBlast beside each command.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe109.txt
run() { local sz=$1 tr=$2 b=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --trans $tr --size $sz --batch $b --iters 50 --format json "${a[@]}" 2>>$OUT/probe109.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("vs_clblast"), r.get("note","")[:110], flush=True)' "$sz $tr $b" || echo "$sz $tr $b : no JSON"; }
W=warp_tiled:READT=1,PREFETCH=0,BK=16
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for job in "2048x2048x64 8" "2048x2048x256 8" "4096x4096x64 2" "2048x2048x2048 4"; do set -- $job
  for tr in NN NT; do run $1 $tr $2 auto; done
done
for job in "128x128x64 512" "512x512x64 64"; do set -- $job
  run $1 NT $2 auto $W,BM=128,BN=64,TM=8,TN=4,WM=64,WN=16 $W,BM=64,BN=128,TM=4,TN=8,WM=32,WN=32 \
    $W,WM=32,WN=64 $W,TM=8,TN=8,WM=64,WN=32,APAD=0 warp_tiled:READT=1,PREFETCH=0,BK=8,WM=64,WN=32 \
    warp_tiled:READT=1,PREFETCH=0,BK=32,BM=64,BN=128,TM=4,TN=8,WM=32,WN=32 auto
done
} > $P 2>&1
tail -3 $P
