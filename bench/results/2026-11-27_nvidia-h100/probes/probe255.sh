#!/usr/bin/env bash
# Probe 255 (H100, working tree: TF32's M <= 32 wide form at 5 slots): what tensor_core runs at
# 32 < N-wide shapes after the change, beside cuBLAS tf32; and the 16-bit M <= 16 ring at
# 16x4096x4096, the shape probe254 left out (16 slots against 12 and 8).  Two rounds.
source .gpu/setup.sh
P=$OUT/probe255.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("params") or "")[:110], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1; shift; timeout 40 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe255.err | show "$tag"; }
S="32x28672x4096 32x11008x4096 24x28672x4096 32x14336x4096"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; git diff --stat; date -u
for r in 1 2; do
  for s in $S; do run "r$r tf32 $s" --trans NT --size $s --iters 100 --algo tensor_core; done
  for d in bf16 f16; do
    run "r$r $d 16x4096x4096 rule" --trans NT --dtype $d --out $d --size 16x4096x4096 --iters 100 --algo tensor_core
    for st in 16 12 8; do run "r$r $d 16x4096x4096 ST=$st" --trans NT --dtype $d --out $d --size 16x4096x4096 --iters 100 --algo "wgmma_tma:BM=64,BN=16,WGN=16,SWAP=1,INFLIGHT=1,STAGES=$st"; done
  done
done
python3 bench/cublas.py $(for s in $S; do printf 'tf32:%s:NT ' $s; done) > $OUT/probe255_cublas.json 2>>$OUT/probe255.err
python3 - "$OUT/probe255_cublas.json" <<'PYEOF'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d["rows"]: print("cublas", j["mode"], j.get("trans",""), "%dx%dx%d" % (j["M"], j["N"], j["K"]), j["ms_median"], j["ms_min"])
PYEOF
} > $P 2>&1
cat $P
