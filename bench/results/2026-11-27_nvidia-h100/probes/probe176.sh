#!/usr/bin/env bash
# Probe 176: the mirrored choice at HEAD for 16-bit and TF32 (tensor_core, tensor_core_tf32x3),
# tall and narrow row-major calls and small-M calls stored column-major, each verified; cuBLAS
# (row-major, the same shapes) after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe176.txt
one() { # tag layout trans size args...
  local tag=$1 l=$2 t=$3 sz=$4; shift 4
  printf '%s %s %s %s ' "$tag" $l $t $sz
  timeout 120 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 30 --layout $l --trans $t --size $sz "$@" 2>/tmp/err.txt | python3 -c '
import json,sys
t=sys.stdin.read()
try: r=json.loads(t)["results"][0]["rows"][0]; print(r["status"], r["ms_median"], r["ms_min"], r["error"], "|", r.get("note","")[5:160])
except Exception: print("no JSON", t[-200:].replace("\n"," "))' || true
  [ -s /tmp/err.txt ] && { echo "  stderr:"; tail -3 /tmp/err.txt; }
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for t in NT NN; do
  for sz in 4096x16x4096 4096x128x4096 14336x128x4096 8192x64x8192; do
    one bf16 row $t $sz --algo tensor_core --dtype bf16 --out bf16
    one f16 row $t $sz --algo tensor_core --dtype f16 --out f16
    one tf32 row $t $sz --algo tensor_core
    one tf32x3 row $t $sz --algo tensor_core_tf32x3
  done
  for sz in 16x4096x4096 128x4096x4096 16x28672x4096; do
    one bf16 col $t $sz --algo tensor_core --dtype bf16 --out bf16
    one tf32 col $t $sz --algo tensor_core
    one f32 col $t $sz --algo auto
  done
done
args=""; for t in NT NN; do for sz in 4096x16x4096 4096x128x4096 14336x128x4096 8192x64x8192; do args="$args bf16:$sz:$t f16:$sz:$t tf32:$sz:$t fp32:$sz:$t"; done; done
python3 bench/cublas.py $args 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
