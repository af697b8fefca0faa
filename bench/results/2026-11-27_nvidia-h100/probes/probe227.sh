#!/usr/bin/env bash
# Probe 227: where M <= 16's time goes: fixed cost against streaming rate.  fp32 auto, TF32
# tensor_core and tf32x3 N T at M = 1 and 16, N = 4096, K from 1024 to 16384, cold L2, and
# M = 16 with N = 8192 / 16384 at K = 4096.
source .gpu/setup.sh
P=$OUT/probe227.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:20], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), (r.get("note") or r.get("message") or "")[5:120], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for m in 1 16; do for k in 1024 2048 4096 8192 16384; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --cold-l2 --trans NT --size ${m}x4096x$k --algo auto --algo tensor_core --algo tensor_core_tf32x3 2>>$OUT/probe227.err | show "${m}x4096x$k"
done; done
for n in 8192 16384; do
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --cold-l2 --trans NT --size 16x${n}x4096 --algo auto --algo tensor_core --algo tensor_core_tf32x3 2>>$OUT/probe227.err | show "16x${n}x4096"
done
python3 bench/cublas.py fp32:1x4096x1024:NT:cold tf32:1x4096x1024:NT:cold fp32:1x4096x2048:NT:cold tf32:1x4096x2048:NT:cold fp32:1x4096x4096:NT:cold tf32:1x4096x4096:NT:cold fp32:1x4096x8192:NT:cold tf32:1x4096x8192:NT:cold fp32:1x4096x16384:NT:cold tf32:1x4096x16384:NT:cold fp32:16x4096x1024:NT:cold tf32:16x4096x1024:NT:cold fp32:16x4096x2048:NT:cold tf32:16x4096x2048:NT:cold fp32:16x4096x4096:NT:cold tf32:16x4096x4096:NT:cold fp32:16x4096x8192:NT:cold tf32:16x4096x8192:NT:cold fp32:16x4096x16384:NT:cold tf32:16x4096x16384:NT:cold fp32:16x8192x4096:NT:cold tf32:16x8192x4096:NT:cold fp32:16x16384x4096:NT:cold tf32:16x16384x4096:NT:cold > $OUT/probe227_cublas.json 2>>$OUT/probe227.err
python3 - "$OUT/probe227_cublas.json" <<'PYEOF'
import json,sys
d=json.load(open(sys.argv[1]))
for j in d["rows"]: print("cublas", j["mode"], "%dx%dx%d" % (j["M"], j["N"], j["K"]), j["ms_median"], j["ms_min"], round(j["gbps"]))
PYEOF
} > $P 2>&1
cat $P
