#!/usr/bin/env bash
# Probe 127: step 10's loaders with their loads batched (TMA_LD_BATCH chunks in flight per
# loader), tight leading dimensions against the aligned copy (.gpu/old) and the aligned run.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
[ -x build-old/clgemm ] || (cd .gpu/old && meson setup ../../build-old --buildtype=release > /tmp/bo.log 2>&1 && ninja -C ../../build-old clgemm >> /tmp/bo.log 2>&1) || tail -20 /tmp/bo.log
P=$OUT/probe127.txt
run() { local bin=$1 sz=$2 tr=$3 dt=$4 pad=$5; shift 5; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $bin/clgemm --device nvidia --no-baseline --trans $tr --size $sz --dtype $dt $pad --iters 50 --format json -q "${a[@]}" 2>>$OUT/probe127.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' $bin $sz $tr $dt "${pad:-aligned}" "${CLGEMM_BUILD_OPTIONS:-}" || echo "$bin $sz $tr $dt $pad: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for b in 4 8; do
CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS="-cl-nv-verbose -DTMA_LD_BATCH=$b" build-gpu/clgemm --device nvidia --size 1024 --dtype bf16 --no-baseline --iters 1 --warmup 0 --algo wgmma_tma:LOADER=1 2>&1 | grep -i "registers\|spill" | head -4 | sed "s/^/batch $b: /"
done
for round in 1 2; do for dt in bf16 f16; do
  for b in 4 8; do
    CLGEMM_BUILD_OPTIONS="-DTMA_LD_BATCH=$b" run build-gpu 4096 NN $dt "" wgmma_tma:LOADER=1
    CLGEMM_BUILD_OPTIONS="-DTMA_LD_BATCH=$b" run build-gpu 4095 NN $dt "--ld-pad 0" tensor_core
  done
  run build-gpu 4096 NN $dt "" tensor_core
  run build-gpu 4095 NN $dt "" tensor_core
  run build-old 4095 NN $dt "--ld-pad 0" tensor_core
  for sz in 1000x3000x777 777 128x4096x4095; do
    run build-gpu $sz NN $dt "--ld-pad 0" tensor_core
    run build-old $sz NN $dt "--ld-pad 0" tensor_core
    run build-gpu $sz NN $dt "" tensor_core
  done
done; done
} > $P 2>&1
tail -3 $P
