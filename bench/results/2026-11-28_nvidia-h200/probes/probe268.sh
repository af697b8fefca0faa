#!/usr/bin/env bash
# Probe 268 (H200): the 16-bit N T M <= 128 rules after probe267 (64-row blocks split in 2
# where K is long) against the unsplit form they ran before, bf16 and f16 with a 16-bit C,
# two rounds, cuBLAS in the same command.
source bench/probes/probe.sh probe268
export PROBE_TIMEOUT=120
{
probe_header
OLD=wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1
for r in 1 2; do
  for d in bf16 f16; do
    for s in 128x4096x14336 96x4096x14336 128x4096x11008 128x4096x4096; do
      probe_run "r$r $d $s rule" --size $s --dtype $d --out $d --trans NT --algo tensor_core
      probe_run "r$r $d $s before" --size $s --dtype $d --out $d --trans NT --algo $OLD
    done
  done
done
python3 bench/cublas.py bf16:128x4096x14336:NT f16:128x4096x14336:NT bf16:96x4096x14336:NT \
  bf16:128x4096x11008:NT 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
