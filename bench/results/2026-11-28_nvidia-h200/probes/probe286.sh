#!/usr/bin/env bash
# Probe 286 (H200): why step 11's f16 M = 1 N N kernel runs 1.3-1.75x slower than bf16's
# unsplit (the H200 split audit, 2026-11-28): registers and PTX of both (-cl-nv-verbose, the
# cache's PTX), and two other f16 widenings (probe286.patch, -DSK_F16_FORM=1: integer
# arithmetic; 2: PTX cvt.f32.f16) against vload_half, bf16 beside, two interleaved rounds.
source bench/probes/probe.sh probe286
export PROBE_TIMEOUT=120
NN1="WG=512,KT=64,UNROLL=2,BM=1"
{
probe_header
for dt in f16 bf16; do
  CLGEMM_SHOW_BUILD_LOG=1 PROBE_OPTIONS=-cl-nv-verbose probe_run "verbose $dt" --size 1x2048x14336 \
    --trans NN --iters 5 --dtype $dt --out $dt --algo skinny:$NN1,SPLITK=1 --algo skinny:$NN1,SPLITK=4
done
for r in 1 2; do
  for s in 1x2048x14336 1x11008x14336 1x28672x4096 1x4096x4096; do
    a=(--algo tensor_core); for S in 1 2 4; do a+=(--algo skinny:$NN1,SPLITK=$S); done
    for F in 0 1 2; do
      PROBE_OPTIONS=-DSK_F16_FORM=$F probe_run "r$r f16_form$F $s" --size $s --trans NN --iters 50 \
        --dtype f16 --out f16 "${a[@]}"
    done
    PROBE_OPTIONS= probe_run "r$r bf16 $s" --size $s --trans NN --iters 50 --dtype bf16 --out bf16 "${a[@]}"
  done
done
} > $P 2>&1
tar -C /tmp -czf $OUT/cache.tar.gz cache_probe286
cat $P
