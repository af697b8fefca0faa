#!/usr/bin/env bash
# Probe 118: step 7 fed by cp.async (warp_tiled_async, new): registers, then fp32 NN / NT at
# 4096^3, M = 128 (split), NT batches, against auto (step 7's rules) and cuBLAS fp32.
source .gpu/setup.sh
rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
P=$OUT/probe118.txt
run() { local sz=$1 tr=$2 b=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --batch $b --iters 30 --format json "${a[@]}" 2>>$OUT/probe118.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("error"), flush=True)' $sz $tr b$b || echo "$sz $tr : no JSON"; }
W=warp_tiled_async
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for tr in NN NT; do
  CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 timeout 100 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size 512 --algo $W --algo $W:BK=16 --algo $W:WM=64,WN=32 --algo $W:STAGES=4 -q 2>&1 | grep -i "registers\|spill\|error" | sort | uniq -c | head -20
done
for tr in NN NT; do
  run 4096 $tr 1 auto $W $W:BK=16 $W:STAGES=4 $W:WM=64,WN=32 $W:BK=16,STAGES=4 $W:WM=16,WN=128
done
for sz in 128x4096x4096 128x28672x4096 128x4096x14336; do
  run $sz NT 1 auto $W:SPLITK=4 $W:SPLITK=8 $W:WM=64,WN=32,SPLITK=4 $W:BK=16,SPLITK=8
done
run 128x128x64 NT 512 auto $W $W:BK=16 $W:BK=64,STAGES=2 $W:BM=64,BN=64,TM=4,TN=8,WM=16,WN=64,BK=64,STAGES=2
run 512x512x64 NT 64 auto $W $W:BK=16 $W:BK=64,STAGES=2
run 128x128x64 NN 512 auto $W $W:BK=16
python3 bench/cublas.py fp32:4096:NN fp32:4096:NT fp32:128x4096x4096:NT fp32:128x28672x4096:NT fp32:128x4096x14336:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -5 $P
