#!/usr/bin/env bash
# Probe 144: step 7's registers (ptxas, -cl-nv-verbose) where B is read transposed in place
# (READT=1, N T) against N N, with and without the pipeline, K slices of 8 and 16, two warp
# shapes: why the N T batches lose 9% to N N with the pipeline on (probe107, probe140), and one
# timing each at 512 x 128^2 x 64.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe144.txt
{
cat .gpu/commit
for tr in NN NT; do
  for v in PREFETCH=1,BK=8 PREFETCH=1,BK=8,WM=64,WN=32 PREFETCH=0,BK=16,WM=64,WN=32 PREFETCH=1,BK=16,WM=64,WN=32 PREFETCH=0,BK=8,WM=64,WN=32; do
    t=$(CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 timeout 120 build-gpu/clgemm --device nvidia --trans $tr --size 128x128x64 --batch 512 --iters 50 --no-baseline --format json -q --algo warp_tiled:READT=1,$v 2>/tmp/err.txt | python3 -c 'import json,sys; r=json.load(sys.stdin)["results"][0]["rows"][0]; print(r["status"], r.get("ms_median"))')
    regs=$(grep -o "Used [0-9]* registers" /tmp/err.txt | head -1)
    echo "$tr $v : $regs : $t"
  done
done
} > $P 2>&1
cat $P
