#!/usr/bin/env bash
# Probe 235 (a241d48): what tensor_core_tf32x3 chooses and runs at 16 < M <= 64, N T, with the
# new rules, and cuBLAS fp32 in the same command.
source .gpu/setup.sh
P=$OUT/probe235.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:30], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("message") or "")[:150], flush=True)' "$1" || echo "$1: no JSON"; }
S="32x4096x4096 24x4096x4096 32x6144x4096 32x11008x4096 48x28672x4096 64x4096x4096 64x6144x4096 64x11008x4096 64x4096x14336"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for s in $S; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --size $s --algo tensor_core_tf32x3 2>>$OUT/probe235.err | show "$s"
done
python3 bench/cublas.py $(for s in $S; do printf 'fp32:%s:NT ' $s; done) > $OUT/probe235_cublas.json 2>>$OUT/probe235.err
python3 - "$OUT/probe235_cublas.json" <<'PYEOF'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d["rows"]: print("cublas", j["mode"], "%dx%dx%d" % (j["M"], j["N"], j["K"]), j["ms_median"], j["ms_min"])
PYEOF
} > $P 2>&1
cat $P
