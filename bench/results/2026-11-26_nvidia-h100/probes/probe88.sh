#!/usr/bin/env bash
# Probe 88: the 16-bit copy into a packed operand, vload8 (old, HEAD) against value-wise loads
# with selects (new, the working tree), interleaved, tight leading dimensions; aligned beside.
source .gpu/setup.sh
P=$OUT/probe88.txt
mkdir -p /tmp/old && tar xzf .gpu/old.tar.gz -C /tmp/old
(cd /tmp/old && meson setup build --buildtype=release >/dev/null && meson compile -C build >/dev/null) || echo "old build failed"
run() { local bin=$1 tag=$2 dt=$3 sz=$4; shift 4
  timeout 200 $bin --device nvidia --no-baseline --dtype $dt --out $dt --size $sz --iters 30 --format json --algo tensor_core "$@" 2>>$OUT/probe88.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["status"], r.get("ms_median"), flush=True)' $tag $dt $sz "$*" || echo "$tag $dt $sz : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do for t in old new; do bin=build-gpu/clgemm; [ $t = old ] && bin=/tmp/old/build/clgemm
  for sz in 4095 1000x3000x777 4095x4095x777 777x777x777 2000x1000x1001; do run $bin $t bf16 $sz --ld-pad 0; done
done; done
for sz in 4095 1000x3000x777 4095x4095x777 777x777x777 2000x1000x1001; do run build-gpu/clgemm aligned bf16 $sz; done
} > $P 2>&1
tail -2 $P
