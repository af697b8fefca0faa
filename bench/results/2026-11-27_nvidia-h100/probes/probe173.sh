#!/usr/bin/env bash
# Probe 173: the mirror of small M: tall, narrow C (M large, N <= 256), which no shape rule
# covers (rules key on small M), N N and N T, fp32 auto, TF32 and bf16 tensor_core, against
# cuBLAS in the same command; what auto / tensor_core chose.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe173.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 30 "$@" 2>>$OUT/probe173.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), "|", r.get("note","")[:200], flush=True)' "$tag" || echo "$tag $*: no JSON"; }
SH="4096x16x4096 4096x128x4096 4096x256x4096 14336x128x4096 8192x64x8192 2048x128x8192"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for t in NN NT; do for sz in $SH; do
  run "f32 $t $sz" --trans $t --size $sz --algo auto
  run "tf32 $t $sz" --trans $t --size $sz --algo tensor_core
  run "bf16 $t $sz" --trans $t --size $sz --dtype bf16 --out bf16 --algo tensor_core
done; done
args=""; for t in NN NT; do for sz in $SH; do args="$args fp32:$sz:$t tf32:$sz:$t bf16:$sz:$t"; done; done
python3 bench/cublas.py $args 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
