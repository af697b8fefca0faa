#!/usr/bin/env bash
# Probe 271 (H100): step 10's TF32 pre-pass of both operands in one launch (wgmma_tma_pack_two)
# against the two launches before it (the commit before, built beside it from .gpu/old.tar.gz),
# where a call packs both: tight leading dimensions (--ld-pad 0, issue #16's 90% of the aligned
# run at 4095^3 and 1000x3000x777), PACKA=1, tf32x3; the aligned runs beside them (one pass,
# unchanged).  Three interleaved rounds.
source bench/probes/probe.sh probe271
export PROBE_TIMEOUT=90
mkdir -p /tmp/old && tar xzf .gpu/old.tar.gz -C /tmp/old
(cd /tmp/old && meson setup build-gpu --buildtype=release > "$OUT/build-old.log" 2>&1 &&
   meson compile -C build-gpu >> "$OUT/build-old.log" 2>&1) || { tail -20 "$OUT/build-old.log"; exit 1; }
both() { # TAG ARGS...: the new build, then the old one
  local tag=$1; shift
  probe_run "$tag new" "$@"
  (cd /tmp/old && probe_run "$tag old" "$@")
}
{
probe_header
for r in 1 2 3; do
  for s in 1000x3000x777 4095; do
    both "r$r tf32 $s NN aligned" --size $s --algo tensor_core
    both "r$r tf32 $s NN ld0" --size $s --algo tensor_core --ld-pad 0
  done
  both "r$r tf32 1000x3000x777 TN ld0" --size 1000x3000x777 --trans TN --algo tensor_core --ld-pad 0
  both "r$r tf32x3 1000x3000x777 NN ld0" --size 1000x3000x777 --algo tensor_core_tf32x3 --ld-pad 0
  both "r$r tf32x3 1000x3000x777 NN aligned" --size 1000x3000x777 --algo tensor_core_tf32x3
  both "r$r PACKA=1 4096 NN" --size 4096 --algo wgmma_tma:PACKA=1
  both "r$r PACKA=1 1024 NN" --size 1024 --algo wgmma_tma:PACKA=1
done
python3 bench/cublas.py tf32:1000x3000x777 tf32:4095 tf32:4096 tf32:1024 fp32:1000x3000x777 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
