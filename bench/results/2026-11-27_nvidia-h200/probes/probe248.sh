#!/usr/bin/env bash
# Probe 248 (H200): TF32 at M = 128, N T, where the H200's worst Llama ratio lies (llama-5:
# 128x6144x4096 at 0.72 of cuBLAS; the H100's rule, copied): the weight in 64-row blocks (8
# slots) split 1-4 and in 128-row blocks (6 slots) split 1-3, two rounds, the rule beside;
# cuBLAS tf32 in the same command.
source .gpu/setup.sh
P=$OUT/probe248.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("params") or "")[:100], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 40 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe248.err | show "$tag"; }
T="BN=128,WGN=128,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
S="128x6144x4096 128x4096x4096 128x28672x4096 128x4096x14336 128x11008x4096"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2; do
for s in $S; do
  run "r$r $s rule" --trans NT --size $s --iters 50 --algo tensor_core
  for k in 1 2 3 4; do run "r$r $s BM=64 K=$k" --trans NT --size $s --iters 50 --algo "wgmma_tma:BM=64,STAGES=8,$T,SPLITK=$k"; done
  for k in 1 2 3; do run "r$r $s BM=128 K=$k" --trans NT --size $s --iters 50 --algo "wgmma_tma:BM=128,STAGES=6,$T,SPLITK=$k"; done
done
done
python3 bench/cublas.py $(for s in $S; do printf 'tf32:%s:NT ' $s; done) > $OUT/probe248_cublas.json 2>>$OUT/probe248.err
python3 - "$OUT/probe248_cublas.json" <<'PYEOF'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d["rows"]: print("cublas", j["mode"], j.get("trans",""), "%dx%dx%d" % (j["M"], j["N"], j["K"]), j["ms_median"], j["ms_min"])
PYEOF
} > $P 2>&1
cat $P
