#!/usr/bin/env bash
# Probe 300 (H200): probe294 found the M = 128 stream set by the weight's bytes in flight (4 -> 8
# slots: 15%); the rule's 8 slots of 24 KiB leave room for a ninth (216 KiB of 227).  bf16 N T,
# the rule against STAGES=9 (same split where the rule splits), two rounds, verified.
source bench/probes/probe.sh probe300
export PROBE_TIMEOUT=100
R="BM=64,BN=128,WGN=128,SWAP=1,INFLIGHT=1"
{
probe_header
for r in 1 2; do
  for c in 128x6144x4096:1 128x4096x4096:1 128x4096x14336:2 128x11008x4096:1; do
    s=${c%%:*}; k=${c#*:}
    probe_run "r$r bf16 NT $s" --size $s --trans NT --dtype bf16 --out bf16 --iters 100 --algo tensor_core \
      --algo wgmma_tma:$R,STAGES=8,SPLITK=$k --algo wgmma_tma:$R,STAGES=9,SPLITK=$k
  done
done
} > $P 2>&1
cat $P
