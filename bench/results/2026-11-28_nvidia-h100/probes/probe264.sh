#!/usr/bin/env bash
# Probe 264 (H100): 16-bit N T at M = 16 and M = 128 with 128-row tiles of the weight (two
# consumers: half the groups along N, so each row of X is read by half as many groups) split
# over K to fill the SMs again, against the rules (64-row tiles: at 16x4096x4096 64 groups
# read X 64 times, 8 MiB beside the 32 MiB weight; at 128x4096x4096 64 MiB beside it).
# Warm and cold L2 at M = 16.  cuBLAS in the same command.
source bench/probes/probe.sh probe264
export PROBE_TIMEOUT=120
{
probe_header
S16=BM=128,BN=16,WGN=16,SWAP=1,INFLIGHT=1
S128=BM=128,BN=128,WGN=128,SWAP=1,INFLIGHT=1
for r in 1 2 3; do
  for c in "" "--cold-l2"; do
    probe_run "r$r bf16 16x4096x4096 $c rule" --size 16x4096x4096 --dtype bf16 --out bf16 --trans NT --algo tensor_core $c
    for v in "$S16,STAGES=8,SPLITK=2" "$S16,STAGES=8,SPLITK=4" "$S16,STAGES=12,SPLITK=4" "BM=64,BN=16,WGN=16,SWAP=1,INFLIGHT=1,STAGES=8,SPLITK=2"; do
      probe_run "r$r bf16 16x4096x4096 $c $v" --size 16x4096x4096 --dtype bf16 --out bf16 --trans NT --algo wgmma_tma:$v $c
    done
  done
  probe_run "r$r bf16 16x4096x14336 rule" --size 16x4096x14336 --dtype bf16 --out bf16 --trans NT --algo tensor_core
  probe_run "r$r bf16 16x4096x14336 $S16,STAGES=8,SPLITK=2" --size 16x4096x14336 --dtype bf16 --out bf16 --trans NT --algo wgmma_tma:$S16,STAGES=8,SPLITK=2
  for d in f16 bf16; do
    probe_run "r$r $d 128x4096x4096 rule" --size 128x4096x4096 --dtype $d --out $d --trans NT --algo tensor_core
    for v in "$S128,STAGES=6,SPLITK=2" "$S128,STAGES=6,SPLITK=4" "$S128,STAGES=4,SPLITK=4"; do
      probe_run "r$r $d 128x4096x4096 $v" --size 128x4096x4096 --dtype $d --out $d --trans NT --algo wgmma_tma:$v
    done
  done
  probe_run "r$r bf16 128x6144x4096 rule" --size 128x6144x4096 --dtype bf16 --out bf16 --trans NT --algo tensor_core
  probe_run "r$r bf16 128x6144x4096 $S128,STAGES=6,SPLITK=2" --size 128x6144x4096 --dtype bf16 --out bf16 --trans NT --algo wgmma_tma:$S128,STAGES=6,SPLITK=2
done
python3 bench/cublas.py bf16:16x4096x4096:NT bf16:16x4096x4096:NT:cold bf16:16x4096x14336:NT \
  f16:128x4096x4096:NT bf16:128x4096x4096:NT bf16:128x6144x4096:NT 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
