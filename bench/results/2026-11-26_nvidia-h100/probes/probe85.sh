#!/usr/bin/env bash
# Probe 85: step 7's split in one launch (the group that finishes a block last sums the slices,
# cl/ksplit.h) against the commit before (old: sliced launch, then a reduction kernel), the same
# shapes interleaved; auto and tensor_core_tf32x3 by the rules, and forced counts.
source .gpu/setup.sh
P=$OUT/probe85.txt
mkdir -p /tmp/old && tar xzf .gpu/old.tar.gz -C /tmp/old
(cd /tmp/old && meson setup build --buildtype=release >/dev/null && meson compile -C build >/dev/null) || echo "old build failed"
run() { local bin=$1 tag=$2 sz=$3 tr=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $bin --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe85.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("params"), flush=True)' $tag $sz $tr || echo "$tag $sz $tr : no JSON"; }
NEW=build-gpu/clgemm OLD=/tmp/old/build/clgemm
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do for t in old new; do bin=$NEW; [ $t = old ] && bin=$OLD
  for s in "128x4096x4096 NT" "128x6144x4096 NT" "128x4096x14336 NT" "128x28672x4096 NT" "100x3000x1000 NN" "64x5120x1000 NT" "100x3000x777 NN" "96x2560x2560 NN"; do set -- $s
    run $bin $t $1 $2 auto
  done
done; done
for s in "128x4096x4096 NT" "128x6144x4096 NT" "128x4096x14336 NT" "128x28672x4096 NT" "100x3000x1000 NN"; do set -- $s
  run $NEW forced $1 $2 tensor_core_tf32x3 "warp_tiled:READT=1,SPLITK=2" "warp_tiled:READT=1,SPLITK=3" "warp_tiled:READT=1,SPLITK=4" "warp_tiled:READT=1,SPLITK=5" "warp_tiled:READT=1,SPLITK=6" "warp_tiled:READT=1,SPLITK=8" "warp_tiled:READT=1,SPLITK=16"
done
python3 bench/cublas.py fp32:128x4096x4096:NT fp32:128x6144x4096:NT fp32:128x4096x14336:NT fp32:128x28672x4096:NT fp32:100x3000x1000 fp32:64x5120x1000:NT fp32:100x3000x777 fp32:96x2560x2560 2>&1 | grep "^cublas"
} > $P 2>&1
tail -2 $P
