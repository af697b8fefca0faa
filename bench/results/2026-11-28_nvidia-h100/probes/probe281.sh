#!/usr/bin/env bash
# Probe 281 (H100): the split count of step 11's other small-M rules, which still split by
# split_per_cu (probe278 found the M <= 16 ones better counted by rounds): fp32 M = 1 N N,
# M = 4 N T and N N, bf16 M = 1 N N; every split 1..8, 12, 16 at several widths and two
# depths, two interleaved rounds, auto (or tensor_core) beside.
source bench/probes/probe.sh probe281
export PROBE_TIMEOUT=120
{
probe_header
declare -A P=([f32_1_NN]="WG=512,KT=64,UNROLL=2,BM=1" [f32_4_NT]="WG=256,KT=32,RN=8,UNROLL=1,BM=16"
              [f32_4_NN]="WG=512,KT=64,UNROLL=2,BM=16" [bf16_1_NN]="WG=512,KT=64,UNROLL=2,BM=1")
for r in 1 2; do
  for c in f32_1_NN f32_4_NT f32_4_NN bf16_1_NN; do
    dt=${c%%_*}; rest=${c#*_}; M=${rest%%_*}; tr=${rest#*_}
    extra=(); auto=auto
    [ $dt = bf16 ] && { extra=(--dtype bf16 --out bf16); auto=tensor_core; }
    for nk in 2048x4096 4096x4096 6144x4096 11008x4096 28672x4096 4096x14336 11008x14336; do
      s=${M}x$nk
      a=(--algo $auto); for S in 1 2 3 4 5 6 8 12 16; do a+=(--algo skinny:${P[$c]},SPLITK=$S); done
      probe_run "r$r $c $s" --size $s --trans $tr --iters 50 "${extra[@]}" "${a[@]}"
    done
  done
done
} > $P 2>&1
cat $P
