#!/usr/bin/env bash
# Probe 261 (H100): issue #17's bandwidth target at M <= 16 in 16-bit (80% of 3.35 TB/s where
# the weight exceeds the L2): its worst row is 16x4096x14336 (77%), where the 64 x 16 tile gives
# 64 groups, one SM in two.  K split in one launch (SPLITK=2, 3) doubles or triples the groups
# streaming the weight: against the rule, warm and cold L2, 16 and 8 slots, bf16 N T and N N,
# at long and short K; two interleaved rounds.
source .gpu/setup.sh
P=$OUT/probe261.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), r.get("error"), (r.get("note") or r.get("params") or "")[:90], flush=True)' "$1" || echo "$1: no JSON"; }
export CLGEMM_CACHE_DIR=/tmp/cc261
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe261.err | show "$tag"; }
H="BM=64,BN=16,WGN=16,SWAP=1,INFLIGHT=1"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2; do
  for t in NT NN; do
    for s in 16x4096x14336 8x4096x14336 16x4096x8192 16x4096x4096; do
      for l2 in warm cold; do
        c=""; [ $l2 = cold ] && c=--cold-l2
        run "r$r $t $s $l2 rule" --trans $t --dtype bf16 --out bf16 --size $s --iters 50 $c --algo tensor_core
        for st in 16 8; do for k in 2 3; do
          [ $t = NN ] && { [ $st = 8 ] || [ $k = 3 ]; } && continue
          run "r$r $t $s $l2 ST=$st K=$k" --trans $t --dtype bf16 --out bf16 --size $s --iters 50 $c --algo "wgmma_tma:$H,STAGES=$st,SPLITK=$k"
        done; done
      done
    done
  done
done
python3 bench/cublas.py bf16:16x4096x14336:NT bf16:16x4096x14336:NT:cold bf16:8x4096x14336:NT bf16:16x4096x8192:NT bf16:16x4096x4096:NT 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
