#!/usr/bin/env bash
# Probe 72: step 10's tensor maps by value (maps-test: no per-call maps buffer) against main
# (eb746e1: a buffer created and uploaded per call), interleaved; and what TF32 pays for its
# B transpose pre-pass: the same NN calls as NT (B stored N x K, read where it lies).
source .gpu/setup.sh
mkdir -p /tmp/old && tar -C /tmp/old -xzf .gpu/old.tar.gz && cp -r .gpu /tmp/old/ &&
(cd /tmp/old && meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build_old.log 2>&1 || { echo "old build failed"; tail -30 $OUT/build_old.log; }
P=$OUT/probe72.txt
run() { local bin=$1 tag=$2 dt=$3 sz=$4 b=$5 tr=$6; shift 6; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 120 $bin --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans $tr --size $sz --batch $b --iters 100 --format json "${a[@]}" 2>>$OUT/probe72.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' $tag $dt $sz $b $tr; }
{
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2; do for tree in old new; do bin=build-gpu/clgemm; [ $tree = old ] && bin=/tmp/old/build-gpu/clgemm
  for dt in bf16 f32; do
    for sz in 16x4096x4096 128x4096x4096 16x4096x64; do run $bin $rep-$tree $dt $sz 1 NT tensor_core; done
    run $bin $rep-$tree $dt 512x512x64 64 NN tensor_core
    run $bin $rep-$tree $dt 128x128x64 512 NN tensor_core
    run $bin $rep-$tree $dt 4096 1 NN tensor_core
  done
done; done
for tr in NN NT TN TT; do
  run build-gpu/clgemm trans f32 512x512x64 64 $tr tensor_core
  run build-gpu/clgemm trans f32 128x128x64 512 $tr tensor_core
  run build-gpu/clgemm trans f32 128x4096x4096 1 $tr tensor_core
  run build-gpu/clgemm trans f32 4096 1 $tr tensor_core
done
} > $P 2>&1
tail -1 $P
