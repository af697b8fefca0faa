#!/usr/bin/env bash
# Probe 116: probe115 again, layout_pack2 one-dimensional (HEAD) against the two launches
# before it (HEAD~2: pack2.patch reversed on a copy), interleaved, three rounds; the aligned call of
# each size beside.
source .gpu/setup.sh
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude=./build* --exclude=./.git -cf - . | tar -C /tmp/old -xf -
(cd /tmp/old && patch -s -R -p1 < .gpu/pack2.patch && grep -c pack2 cl/layout.cl; meson setup build --buildtype=release > /tmp/old.log 2>&1 && meson compile -C build >> /tmp/old.log 2>&1) || { tail -20 /tmp/old.log; echo OLD BUILD FAILED; }
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe116.txt
run() { local tag=$1 bin=$2 sz=$3 d=$4 pad=$5 algo=$6
  local o=""; [ $d != f32 ] && o="--dtype $d --out $d"
  timeout 200 $bin --device nvidia --no-baseline --size $sz $o $pad --iters 100 --format json --algo $algo 2>>$OUT/probe116.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag $sz $d ${pad:-aligned}" || echo "$tag $sz : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for round in 1 2 3; do
for job in "1000x3000x777 bf16 tensor_core" "1000x3000x777 f16 tensor_core" "1000x3000x777 f32 auto" "1000x3000x777 f32 tensor_core" \
           "4095x4095x4095 bf16 tensor_core" "4095x4095x4095 f32 auto" "777x777x777 bf16 tensor_core"; do
  set -- $job
  run one-launch build-gpu/clgemm $1 $2 "--ld-pad 0" $3
  run two-launches /tmp/old/build/clgemm $1 $2 "--ld-pad 0" $3
  [ $round = 1 ] && run aligned build-gpu/clgemm $1 $2 "" $3
done; done
} > $P 2>&1
tail -3 $P
