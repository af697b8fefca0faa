#!/usr/bin/env bash
# Probe 111 (an experiment, not committed as code): step 10 with the host writing the final
# tensor maps (buffers' addresses read back once) into slot 0, so that no group publishes
# maps or acquires them (CLGEMM_TMA_HOST_MAPS=1, built with -DTMA_HOST_MAPS=1), against the
# tree's in-kernel publishing.  Interleaved, two rounds.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe111.txt
run() { local tag=$1 sz=$2 b=$3 tr=$4 d=$5; shift 5
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --size $sz --batch $b --trans $tr --dtype $d --out $d --iters 200 --format json --algo tensor_core 2>>$OUT/probe111.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag $sz b$b $tr $d" || echo "$tag $sz $b : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for round in 1 2; do
for job in "128x128x64 1 NN f16" "64x64x16 512 NN f16" "128x128x64 512 NN f16" "128x128x64 512 NT bf16" "512x512x64 64 NN bf16" \
           "16x4096x4096 1 NT f16" "16x4096x14336 1 NT bf16" "128x4096x4096 1 NT f16" "128x4096x4096 1 NT bf16" "4096x4096x4096 1 NT bf16"; do
  set -- $job
  run tree $1 $2 $3 $4
  export CLGEMM_TMA_HOST_MAPS=1 CLGEMM_BUILD_OPTIONS=-DTMA_HOST_MAPS=1; run hostmaps $1 $2 $3 $4; unset CLGEMM_TMA_HOST_MAPS CLGEMM_BUILD_OPTIONS
done; done
} > $P 2>&1
tail -3 $P
