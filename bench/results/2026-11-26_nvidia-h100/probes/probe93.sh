#!/usr/bin/env bash
# Probe 93: (1) the copy into a packed operand at tight leading dimensions, element loads (old,
# ef3c0c6) against two aligned vectors realigned in registers (new, HEAD), interleaved, two
# rounds, bf16 / f16 (tensor_core) and fp32 (auto); aligned runs beside.  (2) fp32 auto at
# 16 < M <= 64 by the new rules as shipped (ef3c0c6), NN and NT, with cuBLAS fp32.
source .gpu/setup.sh
P=$OUT/probe93.txt
mkdir -p /tmp/old && tar xzf .gpu/old.tar.gz -C /tmp/old
(cd /tmp/old && meson setup build --buildtype=release >/dev/null && meson compile -C build >/dev/null) || echo "old build failed"
run() { local bin=$1 tag=$2 dt=$3 sz=$4 algo=$5; shift 5; local o=(); [ $dt != f32 ] && o=(--dtype $dt --out $dt)
  timeout 200 $bin --device nvidia --no-baseline "${o[@]}" --size $sz --iters 30 --format json --algo $algo "$@" 2>>$OUT/probe93.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["status"], r.get("ms_median"), flush=True)' $tag $dt $sz $algo "$*" || echo "$tag $dt $sz : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do for t in old new; do bin=build-gpu/clgemm; [ $t = old ] && bin=/tmp/old/build/clgemm
  for sz in 4095 1000x3000x777 4095x4095x777 777x777x777; do
    run $bin $t bf16 $sz tensor_core --ld-pad 0; run $bin $t f16 $sz tensor_core --ld-pad 0
    run $bin $t f32 $sz auto --ld-pad 0; run $bin $t f32 $sz tensor_core --ld-pad 0
  done
done; done
for sz in 4095 1000x3000x777 4095x4095x777 777x777x777; do
  run build-gpu/clgemm aligned bf16 $sz tensor_core; run build-gpu/clgemm aligned f16 $sz tensor_core
  run build-gpu/clgemm aligned f32 $sz auto; run build-gpu/clgemm aligned f32 $sz tensor_core
done
for sz in 64x4096x4096 64x4096x14336 64x28672x4096 32x6144x4096 17x4096x4096 24x5120x1000 64x3000x777 40x8192x2048; do
  for tr in NN NT TT; do run build-gpu/clgemm rule f32 $sz auto --trans $tr; done
done
python3 bench/cublas.py fp32:64x4096x14336 fp32:24x5120x1000 fp32:24x5120x1000:NT fp32:64x3000x777 fp32:64x3000x777:NT fp32:40x8192x2048 fp32:40x8192x2048:NT fp32:64x28672x4096 fp32:32x6144x4096 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
