#!/usr/bin/env bash
# Probe 178: the 16-bit M <= 16 rules for A stored K x M (the working tree) where they apply:
# T T / T N directly, row-major N N / T N with N = 16 through the mirror, and small M stored
# column-major; what tensor_core chose; each verified.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe178.txt
one() { local l=$1 t=$2 sz=$3; shift 3
  printf '%s %s %s ' $l $t $sz
  timeout 120 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --layout $l --trans $t --size $sz --dtype bf16 --out bf16 --algo tensor_core 2>/tmp/err.txt | python3 -c '
import json,sys
r=json.load(sys.stdin)["results"][0]["rows"][0]; print(r["status"], r["ms_median"], r["ms_min"], r["error"], "|", r.get("note","")[5:120])' || echo "no JSON"
  [ -s /tmp/err.txt ] && { echo "  stderr:"; tail -3 /tmp/err.txt; }
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
one row TT 16x4096x4096; one row TN 16x4096x4096
one row NN 4096x16x4096; one row TN 4096x16x4096; one row NN 4096x16x14336
one col NN 16x4096x4096; one col NT 16x4096x4096; one col NN 16x4096x14336; one col NT 16x28672x4096
python3 bench/cublas.py bf16:4096x16x4096:NN bf16:4096x16x4096:TN bf16:4096x16x14336:NN 2>&1 | grep cublas
} > $P 2>&1
cat $P
