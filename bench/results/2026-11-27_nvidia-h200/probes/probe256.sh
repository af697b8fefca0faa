#!/usr/bin/env bash
# Probe 256 (H200): TF32's M <= 32 wide form (128 x 32, B stored N x K) at 8 slots against 5,
# as the H100 took in 44f8da9 (probes 254-255); two interleaved rounds, cuBLAS tf32 beside.
source .gpu/setup.sh
P=$OUT/probe256.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("params") or "")[:110], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 40 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe256.err | show "$tag"; }
T="BM=128,BN=32,WGN=32,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
S="32x28672x4096 32x11008x4096 32x14336x4096 24x28672x4096"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2; do for s in $S; do
  run "r$r $s rule" --trans NT --size $s --iters 100 --algo tensor_core
  for st in 8 5; do run "r$r $s ST=$st" --trans NT --size $s --iters 100 --algo "wgmma_tma:$T,STAGES=$st"; done
done; done
python3 bench/cublas.py $(for s in $S; do printf 'tf32:%s:NT ' $s; done) > $OUT/probe256_cublas.json 2>>$OUT/probe256.err
python3 - "$OUT/probe256_cublas.json" <<'PYEOF'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d["rows"]: print("cublas", j["mode"], j.get("trans",""), "%dx%dx%d" % (j["M"], j["N"], j["K"]), j["ms_median"], j["ms_min"])
PYEOF
} > $P 2>&1
cat $P
