#!/usr/bin/env bash
# Probe 262 (H100): PERSIST=1 walking one problem's tiles (132 groups, each every 132nd tile,
# its producer copying the next tile's slices while the consumers store C) against the plain
# launch (a group per tile), where step 10's 128 x 256 tile runs several rounds: 16-bit
# 4096^3, 8192^3 and the Llama M = 4096 shapes, TF32 4096^3 (its ring one slot shallower, to
# leave room for the staged stores).  cuBLAS in the same command.
source bench/probes/probe.sh probe262
export PROBE_TIMEOUT=120
{
probe_header
TF='PACKA=3,SETMAXNREG=1'
for r in 1 2 3; do
  for d in bf16 f16; do
    probe_run "r$r $d 4096 NT out$d tensor_core" --size 4096 --dtype $d --trans NT --out $d --algo tensor_core
    probe_run "r$r $d 4096 NT out$d PERSIST=1" --size 4096 --dtype $d --trans NT --out $d --algo wgmma_tma:PERSIST=1
  done
  probe_run "r$r bf16 4096 NN outf32 tensor_core" --size 4096 --dtype bf16 --algo tensor_core
  probe_run "r$r bf16 4096 NN outf32 PERSIST=1" --size 4096 --dtype bf16 --algo wgmma_tma:PERSIST=1
  probe_run "r$r bf16 8192 NN outbf16 tensor_core" --size 8192 --dtype bf16 --out bf16 --algo tensor_core
  probe_run "r$r bf16 8192 NN outbf16 PERSIST=1" --size 8192 --dtype bf16 --out bf16 --algo wgmma_tma:PERSIST=1
  for s in 4096x6144x4096 4096x28672x4096 4096x4096x14336; do
    probe_run "r$r bf16 $s NT outbf16 tensor_core" --size $s --dtype bf16 --trans NT --out bf16 --algo tensor_core
    probe_run "r$r bf16 $s NT outbf16 PERSIST=1" --size $s --dtype bf16 --trans NT --out bf16 --algo wgmma_tma:PERSIST=1
  done
  probe_run "r$r tf32 4096 NT tensor_core" --size 4096 --trans NT --algo tensor_core
  probe_run "r$r tf32 4096 NT STAGES=3" --size 4096 --trans NT --algo wgmma_tma:$TF,STAGES=3
  probe_run "r$r tf32 4096 NT STAGES=3,PERSIST=1" --size 4096 --trans NT --algo wgmma_tma:$TF,STAGES=3,PERSIST=1
  probe_run "r$r tf32 4096x28672x4096 NT tensor_core" --size 4096x28672x4096 --trans NT --algo tensor_core
  probe_run "r$r tf32 4096x28672x4096 NT STAGES=3,PERSIST=1" --size 4096x28672x4096 --trans NT --algo wgmma_tma:$TF,SWAP=1,STAGES=3,PERSIST=1
done
python3 bench/cublas.py bf16:4096x4096x4096:NT f16:4096x4096x4096:NT bf16:8192x8192x8192:NN \
  bf16:4096x6144x4096:NT bf16:4096x28672x4096:NT bf16:4096x4096x14336:NT \
  tf32:4096x4096x4096:NT tf32:4096x28672x4096:NT 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
