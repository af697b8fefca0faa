#!/usr/bin/env bash
# Probe 247 (H200): the H100's two ring changes of 2026-11-27 asked on the H200, whose tuning
# file still has 11 slots: TF32's M <= 16 rules (128-row tile; probe241 found 5 slots faster
# on the H100) at the rules' own splits, and tf32x3's M <= 16 wide form (probe244: 6 or 5
# slots faster), two interleaved rounds, N T and N N; cuBLAS tf32 and fp32 in the same command.
source .gpu/setup.sh
P=$OUT/probe247.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("params") or "")[:100], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe247.err | show "$tag"; }
B="BM=128,BN=16,WGN=16,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
X="BM=128,BN=16,WGN=16,SWAP=1,SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1"
S="16x4096x4096 16x6144x4096 16x28672x4096 16x4096x14336 16x11008x4096 16x14336x4096 12x13824x5120"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2; do
  for tr in NT NN; do
    for sk in "16x4096x4096 4" "16x6144x4096 2" "16x11008x4096 1" "16x28672x4096 1" "16x4096x14336 4" "8x4096x4096 4" "3x5000x3000 2" "12x2048x8192 8"; do
      set -- $sk
      run "tf32 r$r $tr $1 rule" --trans $tr --size $1 --iters 100 --algo tensor_core
      for st in 11 5; do run "tf32 r$r $tr $1 ST=$st" --trans $tr --size $1 --iters 100 --algo "wgmma_tma:$B,STAGES=$st,SPLITK=$2"; done
    done
    for s in 16x28672x4096 16x14336x4096 16x11008x4096 12x13824x5120; do
      run "x3 r$r $tr $s rule" --trans $tr --size $s --iters 50 --algo tensor_core_tf32x3
      for st in 11 6 5; do run "x3 r$r $tr $s ST=$st" --trans $tr --size $s --iters 50 --algo "wgmma_tma:$X,STAGES=$st"; done
    done
  done
done
python3 bench/cublas.py $(for s in $S; do printf 'tf32:%s:NT tf32:%s:NN fp32:%s:NT fp32:%s:NN ' $s $s $s $s; done) > $OUT/probe247_cublas.json 2>>$OUT/probe247.err
python3 - "$OUT/probe247_cublas.json" <<'PYEOF'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d["rows"]: print("cublas", j["mode"], j.get("trans",""), "%dx%dx%d" % (j["M"], j["N"], j["K"]), j["ms_median"], j["ms_min"])
PYEOF
} > $P 2>&1
cat $P
