#!/usr/bin/env bash
# Probe 119: warp_tiled_async with the k loop unrolled KU steps (registers under 128?), fp32
# NN / NT 4096^3, M = 128 NT split 4, NT batches, against auto.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe119.txt
run() { local sz=$1 tr=$2 b=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --batch $b --iters 30 --format json "${a[@]}" 2>>$OUT/probe119.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("error"), flush=True)' $sz $tr b$b || echo "$sz $tr : no JSON"; }
W=warp_tiled_async
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for tr in NN NT; do for v in KU=1 KU=2 KU=4 KU=1,BK=16 KU=2,WM=64,WN=32 KU=1,STAGES=4; do
  echo "regs $tr $v: $(CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 timeout 100 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size 512 --algo $W:$v -q 2>&1 | grep -o 'Used [0-9]* registers\|[0-9]* bytes spill stores' | tr '\n' ' ')"
done; done
for tr in NN NT; do
  run 4096 $tr 1 auto $W:KU=1 $W:KU=2 $W:KU=4 $W:KU=1,BK=16 $W:KU=2,WM=64,WN=32 $W:KU=1,STAGES=4
done
for sz in 128x4096x4096 128x28672x4096 128x4096x14336; do
  run $sz NT 1 auto $W:KU=1,SPLITK=4 $W:KU=2,SPLITK=4 $W:KU=1,SPLITK=8 $W:KU=2,SPLITK=8
done
run 128x128x64 NT 512 auto $W:KU=1 $W:KU=2 $W:KU=1,BK=64,STAGES=2
run 512x512x64 NT 64 auto $W:KU=1 $W:KU=2
run 128x128x64 NN 512 auto $W:KU=1 $W:KU=2
} > $P 2>&1
tail -5 $P
