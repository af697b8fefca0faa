#!/usr/bin/env bash
# Probe 78: step 10's 128 x 128 tile where the default leaves half the SMs idle (the working
# tree, api_fill_tiles) against HEAD (.gpu/old.tar.gz), interleaved, at squares around the
# threshold (66 blocks of 128 x 256 on 132 SMs), with cuBLAS.
source .gpu/setup.sh
mkdir -p /tmp/old && tar -C /tmp/old -xzf .gpu/old.tar.gz && cp -r .gpu /tmp/old/ &&
(cd /tmp/old && meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build_old.log 2>&1 || { echo "old build failed"; tail -30 $OUT/build_old.log; }
P=$OUT/probe78.txt
run() { local bin=$1 tag=$2 dt=$3 sz=$4 tr=$5; shift 5
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 150 $bin --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans $tr --size $sz --iters 50 --format json --algo tensor_core 2>>$OUT/probe78.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("error"), r.get("params"), flush=True)' $tag $dt $sz $tr; }
{
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2; do for tree in old new; do bin=build-gpu/clgemm; [ $tree = old ] && bin=/tmp/old/build-gpu/clgemm
  for sz in 768 1024 1280 1536 2048 1000x3000x777 512x2048x1024; do
    run $bin $rep-$tree f32 $sz NN; run $bin $rep-$tree bf16 $sz NT
  done
done; done
python3 bench/cublas.py tf32:768 tf32:1024 tf32:1280 tf32:1536 tf32:2048 tf32:512x2048x1024 bf16:768:NT bf16:1024:NT bf16:1280:NT bf16:1536:NT bf16:2048:NT bf16:512x2048x1024:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -1 $P
