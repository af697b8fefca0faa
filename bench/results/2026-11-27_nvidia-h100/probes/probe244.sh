#!/usr/bin/env bash
# Probe 244 (H100): tf32x3's M <= 16 wide form (BM=128, BN=16, unsplit) at its shipped 11 slots
# against 6 and 5 (two groups per SM), probe243's lead, in three interleaved rounds, N T and
# N N, at the widths where the rule takes the wide form and at its neighbours; what
# tensor_core_tf32x3 runs beside them, and cuBLAS fp32 in the same command.
source .gpu/setup.sh
P=$OUT/probe244.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("params") or "")[:90], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 40 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe244.err | show "$tag"; }
X="BM=128,BN=16,WGN=16,SWAP=1,SPLIT=1,PACKA=3,PACKB=2,ROUNDER=1"
S="16x28672x4096 16x11008x4096 16x14336x4096 8x28672x4096 16x22016x4096 12x13824x5120"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2 3; do
  for tr in NT NN; do for s in $S; do
    run "r$r $tr $s rule" --trans $tr --size $s --iters 50 --algo tensor_core_tf32x3
    for st in 11 6 5; do run "r$r $tr $s ST=$st" --trans $tr --size $s --iters 50 --algo "wgmma_tma:$X,STAGES=$st"; done
  done; done
done
python3 bench/cublas.py $(for s in $S; do printf 'fp32:%s:NT fp32:%s:NN ' $s $s; done) > $OUT/probe244_cublas.json 2>>$OUT/probe244.err
python3 - "$OUT/probe244_cublas.json" <<'PYEOF'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d["rows"]: print("cublas", j["mode"], j.get("trans",""), "%dx%dx%d" % (j["M"], j["N"], j["K"]), j["ms_median"], j["ms_min"])
PYEOF
} > $P 2>&1
cat $P
