#!/usr/bin/env bash
# Probe 168: did 57cb16d (the producer's branch restructured for SETMAXNREG) change the
# 16-bit small-M calls whose ratios fell in llama-2?  The tree given (first 57cb16d, then
# the fix that keeps the old branch without SETMAXNREG) against d313c3f built beside it,
# f16 / bf16 N T at 128x4096x4096 and 16x4096x4096, four interleaved rounds; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe168${TAG:-}.txt
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
run_tf32() { for b in new old; do exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm; printf "%s tf32 4096 NT " $b; CLGEMM_CACHE_DIR=/tmp/c$b $exe --device nvidia --no-baseline --format json -q --iters 20 --trans NT --size 4096 --algo tensor_core 2>/dev/null | python3 -c "import json,sys; r=json.load(sys.stdin)[\"results\"][0][\"rows\"][0]; print(r[\"status\"], r[\"ms_median\"])"; done; }
for round in r1 r2 r3 r4; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    export CLGEMM_CACHE_DIR=/tmp/c$b
    for dt in f16 bf16; do for sz in 128x4096x4096 16x4096x4096; do
      printf '%s %s %s %s ' $round $b $dt $sz
      $exe --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype $dt --out $dt --size $sz --algo tensor_core 2>/dev/null | python3 -c 'import json,sys; r=json.load(sys.stdin)["results"][0]["rows"][0]; print(r["status"], r["ms_median"], r["ms_min"])'
    done; done
  done
done
run_tf32
python3 bench/cublas.py f16:128x4096x4096:NT bf16:128x4096x4096:NT f16:16x4096x4096:NT bf16:16x4096x4096:NT 2>&1 | grep cublas
} > $P 2>&1
cat $P | tail -40
