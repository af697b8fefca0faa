#!/usr/bin/env bash
# Probe 113: step 10 with kept maps (HEAD) against ad6d25d (the patch of cl/ host/ tests/
# reversed on a copy of the tree, tuning files included), interleaved, two rounds, every shape
# in its own process for each tree.
source .gpu/setup.sh
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude=./build* --exclude=./.git -cf - . | tar -C /tmp/old -xf -
(cd /tmp/old && patch -s -R -p1 < .gpu/kept.patch && rm -f host/lib/tma_map_cache.* tests/test_kept_maps.c tests/test_map_cache.c && grep -c map_keep cl/10_wgmma_tma.cl; meson setup build --buildtype=release > /tmp/old.log 2>&1 && meson compile -C build >> /tmp/old.log 2>&1) || { tail -20 /tmp/old.log; echo OLD BUILD FAILED; }
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe113.txt
run() { local tag=$1 bin=$2 sz=$3 b=$4 tr=$5 d=$6
  local o="--out $d"; [ $d = f32 ] && o=""
  timeout 200 $bin --device nvidia --no-baseline --size $sz --batch $b --trans $tr --dtype $d $o --iters 200 --format json --algo tensor_core 2>>$OUT/probe113.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag $sz b$b $tr $d" || echo "$tag $sz $b : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for round in 1 2; do
for job in "128x128x64 1 NN f16" "64x64x16 512 NN f16" "128x128x64 512 NN f16" "128x128x64 512 NT bf16" "512x512x64 64 NN bf16" \
           "512x512x64 64 NT f16" "128x128x64 512 NT f32" "16x4096x4096 1 NT f16" "16x4096x14336 1 NT bf16" "128x4096x4096 1 NT f16" \
           "128x4096x4096 1 NT bf16" "128x4096x4096 1 NT f32" "4096x4096x4096 1 NT bf16" "4096x4096x4096 1 NT f32"; do
  set -- $job
  run before /tmp/old/build/clgemm $1 $2 $3 $4
  run kept build-gpu/clgemm $1 $2 $3 $4
done; done
python3 bench/cublas.py f16:128x128x64:b512:r200 bf16:128x128x64:NT:b512:r200 bf16:512x512x64:b64:r200 f16:512x512x64:NT:b64:r200 f16:64x64x16:b512:r200 tf32:128x128x64:NT:b512:r200 2>&1 >/dev/null | grep '^cublas'
} > $P 2>&1
tail -3 $P
