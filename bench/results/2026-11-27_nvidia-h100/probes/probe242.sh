#!/usr/bin/env bash
# Probe 242 (H100, the tuning file of the next commit): what tensor_core runs at M <= 16 for
# TF32 with the M <= 16 rules at STAGES=5 (probe241), N T and N N, cuBLAS tf32 in the same
# command.
source .gpu/setup.sh
P=$OUT/probe242.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:60], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("params") or "")[-60:], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe242.err | show "$tag"; }
S="16x4096x4096 16x6144x4096 16x28672x4096 16x4096x14336 8x4096x4096"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for tr in NT NN; do for s in $S; do run "$tr $s" --trans $tr --size $s --iters 100 --algo tensor_core; done; done
python3 bench/cublas.py $(for s in $S; do printf 'tf32:%s:NT tf32:%s:NN ' $s $s; done) > $OUT/probe242_cublas.json 2>>$OUT/probe242.err
python3 - "$OUT/probe242_cublas.json" <<'PYEOF'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d["rows"]: print("cublas", j["mode"], j.get("trans",""), "%dx%dx%d" % (j["M"], j["N"], j["K"]), j["ms_median"], j["ms_min"])
PYEOF
} > $P 2>&1
cat $P
