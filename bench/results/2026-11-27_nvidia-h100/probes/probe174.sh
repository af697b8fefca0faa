#!/usr/bin/env bash
# Probe 174: tall, narrow C (N small) through the rule of C^T's shape (mirrored, the working
# tree) against dd6653b built beside it: probe173's shapes, N N and N T, fp32 auto, TF32 and
# bf16 tensor_core, and small-M calls stored column-major (a BLAS caller's layout, which the
# library runs as the row-major C^T: tall and narrow); two interleaved rounds; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe174.txt
one() { # round build prec layout trans size
  local exe=build-gpu/clgemm; [ $2 = old ] && exe=/tmp/old/build/clgemm
  local a="--algo auto"; [ $3 = tf32 ] && a="--algo tensor_core"; [ $3 = bf16 ] && a="--algo tensor_core --dtype bf16 --out bf16"
  printf '%s %s %s %s %s %s ' "$@"
  CLGEMM_CACHE_DIR=/tmp/c$2 timeout 120 $exe --device nvidia --no-baseline --format json -q --iters 30 --layout $4 --trans $5 --size $6 $a 2>/dev/null | python3 -c '
import json,sys; r=json.load(sys.stdin)["results"][0]["rows"][0]; print(r["status"], r["ms_median"], r["ms_min"], "|", r.get("note","")[12:150] if sys.argv[1]=="r1" else "")' $1 || echo "no JSON"
}
SH="4096x16x4096 4096x128x4096 4096x256x4096 14336x128x4096 8192x64x8192 2048x128x8192"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do for b in new old; do for pr in f32 tf32 bf16; do
  for t in NN NT; do for sz in $SH; do one $round $b $pr row $t $sz; done; done
  for t in NT NN; do for sz in 16x4096x4096 128x4096x4096 16x28672x4096; do one $round $b $pr col $t $sz; done; done
done; done; done
args=""; for t in NN NT; do for sz in $SH; do args="$args fp32:$sz:$t tf32:$sz:$t bf16:$sz:$t"; done; done
python3 bench/cublas.py $args 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
