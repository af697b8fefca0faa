#!/usr/bin/env bash
# Probe 126: where the loaders' time goes: TMA_LD_PROBE 1 no copy, 2 loads without stores,
# 3 stores without loads, 4 no proxy fence (1-3 compute wrong sums: timing only).
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe126.txt
{
for pr in 0 1 2 3 4; do for sz in 4096 1024; do
  CLGEMM_BUILD_OPTIONS="-DTMA_LD_PROBE=$pr" timeout 100 build-gpu/clgemm --device nvidia --no-baseline --size $sz --dtype bf16 --iters 20 --algo wgmma_tma:LOADER=1 --algo wgmma_tma 2>&1 | grep "wgmma_tma" | sed "s/^/probe $pr $sz: /"
done; done
CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS="-cl-nv-verbose" build-gpu/clgemm --device nvidia --size 1024 --dtype bf16 --no-baseline --iters 1 --warmup 0 --algo wgmma_tma:LOADER=1 2>&1 | grep -i "registers\|spill\|warn\|C75" | head
} > $P 2>&1
cat $P
