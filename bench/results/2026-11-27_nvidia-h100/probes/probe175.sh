#!/usr/bin/env bash
# Probe 175: (1) the mirrored choice's calls that probe174 could not time: a row prepared as
# the call builds it (clgemm_prepare_gemm), bf16 4096x16x4096 N T and 16x4096x4096 N T stored
# column-major; (2) fp32 auto at M <= 128 N T (and tall, narrow calls mirrored into that
# class) with the shipped rule (step 7 READT=1) against a candidate rule in a user tuning file
# (bench/results/2026-11-27_nvidia-h100/probes/probe175_s2_m128.json: step 7 swapped, split with the partial products' traffic), two
# interleaved rounds; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe175.txt
one() { # tag layout trans size args...
  local tag=$1 l=$2 t=$3 sz=$4; shift 4
  printf '%s %s %s %s ' "$tag" $l $t $sz
  timeout 120 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 30 --layout $l --trans $t --size $sz "$@" 2>&1 | python3 -c '
import json,sys
t=sys.stdin.read()
try: r=json.loads(t)["results"][0]["rows"][0]; print(r["status"], r["ms_median"], r["ms_min"], "|", r.get("note","")[12:170])
except Exception: print("no JSON", t[-300:].replace("\n"," "))'
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for t in NT NN; do
  one bf16 row $t 4096x16x4096 --algo tensor_core --dtype bf16 --out bf16
  one bf16 col $t 16x4096x4096 --algo tensor_core --dtype bf16 --out bf16
  one tf32 col $t 16x4096x4096 --algo tensor_core
done
for round in r1 r2; do for cfg in shipped s2; do
  if [ $cfg = s2 ]; then export CLGEMM_TUNING_FILE=$PWD/bench/results/2026-11-27_nvidia-h100/probes/probe175_s2_m128.json; else unset CLGEMM_TUNING_FILE; fi
  for sz in 128x4096x4096 128x6144x4096 128x28672x4096 128x4096x14336 100x5120x5120 96x3000x1000 64x8192x8192; do
    one "$round $cfg f32" row NT $sz --algo auto
  done
  for t in NT NN; do for sz in 14336x128x4096 4096x128x4096 5120x100x5120; do
    one "$round $cfg f32" row $t $sz --algo auto
  done; done
done; done
python3 bench/cublas.py fp32:128x4096x4096:NT fp32:128x6144x4096:NT fp32:128x28672x4096:NT fp32:128x4096x14336:NT fp32:100x5120x5120:NT fp32:96x3000x1000:NT fp32:64x8192x8192:NT fp32:14336x128x4096:NT fp32:4096x128x4096:NT fp32:5120x100x5120:NT fp32:14336x128x4096:NN fp32:4096x128x4096:NN fp32:5120x100x5120:NN bf16:4096x16x4096:NT bf16:4096x16x4096:NN 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
