#!/usr/bin/env bash
# Probe 164: the PTX that NVIDIA's OpenCL compiler (after clgemm's sm_90a post-pass) makes of
# step 10 at 4096^3 TF32 N T: the default (both operands pre-passed, wgmma reads A from local
# memory) and PACKA=3 (A from registers), which the driver's ptxas serialised (probe158).
# Cache files copied out for reading here; the verbose build logs with spills.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
mkdir -p $OUT/ptx
for a in tensor_core wgmma_tma:PACKA=3 wgmma_tma:PACKA=0; do
  d=/tmp/cache_$(echo $a | tr ':=,' '___'); rm -rf $d; mkdir -p $d
  CLGEMM_CACHE_DIR=$d timeout 100 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size 4096 --iters 3 --algo $a > /dev/null 2>&1
  ls -la $d
  for f in $d/*; do cp $f $OUT/ptx/$(basename $d)_$(basename $f); done
  echo "== $a"; CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 100 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size 4096 --iters 3 --algo $a 2>&1 | grep -iE "ptxas|spill|serializ" | head -12
done > $OUT/probe164.txt 2>&1
ls -la $OUT/ptx
