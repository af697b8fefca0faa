#!/usr/bin/env bash
# Probe 272 (H100): step 11 at M = 16 (fp32 N T) waits on its own FMAs and local reads of A,
# which more resident groups hide (probe270).  Blocks of 8 rows (BM=8: two row blocks, the
# second reading B from the L2) hold half the sums: room for three groups per SM (MAXNREG=80)
# or for 8 columns per work-item (RN=8: each vector of A read meets 8 columns); against the
# rule, at the rule's groups x slices and twice that, two interleaved rounds.
source bench/probes/probe.sh probe272
export PROBE_TIMEOUT=60
{
probe_header
B8=skinny:WG=256,KT=16,UNROLL=1,AL=512,BM=8
for r in 1 2; do
  for sp in 16x4096x4096:4 16x6144x4096:2 16x28672x4096:1 16x4096x14336:4; do
    s=${sp%%:*}; S=${sp##*:}; H=$(( S > 1 ? S / 2 : 1 ))
    probe_run "r$r $s rule" --size $s --trans NT --algo auto
    probe_run "r$r $s BM=8 RN=4 S=$S" --size $s --trans NT --algo $B8,RN=4,SPLITK=$S
    probe_run "r$r $s BM=8 RN=4 S=$H" --size $s --trans NT --algo $B8,RN=4,SPLITK=$H
    probe_run "r$r $s BM=8 RN=4 MAXNREG=80 S=$H" --size $s --trans NT --algo $B8,RN=4,MAXNREG=80,SPLITK=$H
    probe_run "r$r $s BM=8 RN=4 MAXNREG=80 S=$S" --size $s --trans NT --algo $B8,RN=4,MAXNREG=80,SPLITK=$S
    probe_run "r$r $s BM=8 RN=8 S=$H" --size $s --trans NT --algo $B8,RN=8,SPLITK=$H
    probe_run "r$r $s BM=8 RN=8 S=$S" --size $s --trans NT --algo $B8,RN=8,SPLITK=$S
  done
done
} > $P 2>&1
cat $P
