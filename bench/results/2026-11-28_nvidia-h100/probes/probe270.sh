#!/usr/bin/env bash
# Probe 270 (H100): step 11 with B copied by cp.async into a ring of local memory per
# work-item (RING, cl/skinny_ring.h), against the fp32 rules (B's loads in registers, UNROLL):
# M = 16 N T at the Llama widths with the rule's split and others, M = 1, M = 16 N N; TF32's
# rule beside it (step 11's fp32 sums may serve TF32 requests); two interleaved rounds, cuBLAS
# in the same command.  Then probe269: the H200's 16-bit long-K split on the H100.
source bench/probes/probe.sh probe270
export PROBE_TIMEOUT=60
{
probe_header
R=skinny:WG=256,KT=16,RN=4,UNROLL=1,AL=512,BM=16
R256=skinny:WG=256,KT=16,RN=4,UNROLL=1,AL=256,BM=16
for r in 1 2; do
  for sp in 16x4096x4096:4 16x6144x4096:2 16x28672x4096:1 16x4096x14336:4; do
    s=${sp%%:*}; S=${sp##*:}; H=$(( S > 1 ? S / 2 : 1 ))
    probe_run "r$r f32 NT $s rule" --size $s --trans NT --algo auto
    probe_run "r$r f32 NT $s tf32 rule" --size $s --trans NT --algo tensor_core
    probe_run "r$r f32 NT $s RING=2 S=$S" --size $s --trans NT --algo $R,RING=2,SPLITK=$S
    probe_run "r$r f32 NT $s RING=3 S=$S" --size $s --trans NT --algo $R,RING=3,SPLITK=$S
    probe_run "r$r f32 NT $s RING=4 S=$S" --size $s --trans NT --algo $R,RING=4,SPLITK=$S
    probe_run "r$r f32 NT $s RING=4 S=$H" --size $s --trans NT --algo $R,RING=4,SPLITK=$H
    probe_run "r$r f32 NT $s AL=256 RING=6 S=$S" --size $s --trans NT --algo $R256,RING=6,SPLITK=$S
  done
  for s in 1x4096x4096 1x28672x4096; do
    probe_run "r$r f32 NT $s rule" --size $s --trans NT --algo auto
    probe_run "r$r f32 NT $s M1 RING=4" --size $s --trans NT --algo skinny:WG=256,KT=128,RN=4,UNROLL=1,BM=1,RING=4
    probe_run "r$r f32 NT $s M1 RING=8" --size $s --trans NT --algo skinny:WG=256,KT=128,RN=4,UNROLL=1,BM=1,RING=8
  done
  for sp in 16x4096x4096:2 16x28672x4096:1; do
    s=${sp%%:*}; S=${sp##*:}
    probe_run "r$r f32 NN $s rule" --size $s --algo auto
    probe_run "r$r f32 NN $s RING=2 S=$S" --size $s --algo skinny:WG=512,KT=32,UNROLL=1,AL=512,BM=16,RING=2,SPLITK=$S
    probe_run "r$r f32 NN $s AL=256 RING=3 S=$S" --size $s --algo skinny:WG=512,KT=32,UNROLL=1,AL=256,BM=16,RING=3,SPLITK=$S
  done
done
S=wgmma_tma:BM=64,BN=128,WGN=128,SWAP=1,INFLIGHT=1,STAGES=8,SPLITK=2
for r in 1 2; do
  for d in bf16 f16; do
    probe_run "p269 r$r $d 128x4096x14336 rule" --size 128x4096x14336 --dtype $d --out $d --trans NT --algo tensor_core
    probe_run "p269 r$r $d 128x4096x14336 split2" --size 128x4096x14336 --dtype $d --out $d --trans NT --algo $S
  done
done
python3 bench/cublas.py fp32:16x4096x4096:NT fp32:16x6144x4096:NT fp32:16x28672x4096:NT \
  fp32:16x4096x14336:NT tf32:16x4096x4096:NT tf32:16x6144x4096:NT tf32:16x28672x4096:NT \
  tf32:16x4096x14336:NT fp32:1x4096x4096:NT fp32:1x28672x4096:NT fp32:16x4096x4096 \
  fp32:16x28672x4096 bf16:128x4096x14336:NT f16:128x4096x14336:NT 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
