#!/usr/bin/env bash
# Probe 260 (H200): the H100's 16-bit M <= 16 trade (probes 257-258: the 64 x 16 tile with 8
# slots instead of 16 wherever N gives it 80 groups or more, N T; 92 or more, N N) on the
# H200, whose rules still run 16 slots everywhere: the rule against both rings forced, bf16
# (and f16 by the rule), N T and N N, three rounds (forced: two).
source .gpu/setup.sh
P=$OUT/probe260.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("params") or "")[:150], flush=True)' "$1" || echo "$1: no JSON"; }
export CLGEMM_CACHE_DIR=/tmp/cc258
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe260.err | show "$tag"; }
H="BM=64,BN=16,WGN=16,SWAP=1,INFLIGHT=1"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
build-gpu/clgemm --device nvidia --algo list 2>&1 | grep -E "tensor_core +(bf16|f16) +NT +M <= 16 " | head -4
for r in 1 2 3; do
  for t in NT NN; do for d in bf16 f16; do
    for s in 16x4096x4096 16x6144x4096 16x28672x4096 16x4096x14336 12x5120x4096 8x11008x4096; do
      run "r$r $t $d $s rule" --trans $t --dtype $d --out $d --size $s --iters 100 --algo tensor_core
      if [ $r -le 2 ] && [ $d = bf16 ]; then
        for st in 16 8; do run "r$r $t $d $s ST=$st" --trans $t --dtype $d --out $d --size $s --iters 100 --algo "wgmma_tma:$H,STAGES=$st"; done
      fi
    done
  done; done
done
python3 bench/cublas.py bf16:16x4096x4096:NT bf16:16x6144x4096:NT bf16:16x28672x4096:NT bf16:16x4096x14336:NT f16:16x6144x4096:NT f16:16x28672x4096:NT 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
