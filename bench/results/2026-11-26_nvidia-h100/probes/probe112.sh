#!/usr/bin/env bash
# Probe 112: step 10's kept maps (the working tree) against the tree before them (kept.patch
# reversed, built beside), interleaved, two rounds; kept maps acquired all the same
# (CLGEMM_TMA_KEPT_ACQUIRE=1, a probe switch).  Then test_kept_maps, as built and with two
# planted bugs: the key without its buffers, the release epoch ignored.
source .gpu/setup.sh
rm -rf /tmp/old && mkdir /tmp/old && cp -r cl host tests tools bench meson.build meson_options.txt /tmp/old/ 2>/dev/null
(cd /tmp/old && patch -s -R -p1 < $OLDPWD/.gpu/kept.patch && rm -f host/lib/tma_map_cache.* tests/test_kept_maps.c tests/test_map_cache.c && meson setup build --buildtype=release > /tmp/old.log 2>&1 && meson compile -C build >> /tmp/old.log 2>&1) || { tail -20 /tmp/old.log; echo OLD BUILD FAILED; }
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe112.txt
run() { local tag=$1 bin=$2 sz=$3 b=$4 tr=$5 d=$6
  timeout 200 $bin --device nvidia --no-baseline --size $sz --batch $b --trans $tr --dtype $d --out $d --iters 200 --format json --algo tensor_core 2>>$OUT/probe112.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' "$tag $sz b$b $tr $d" || echo "$tag $sz $b : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for round in 1 2; do
for job in "128x128x64 1 NN f16" "64x64x16 512 NN f16" "128x128x64 512 NN f16" "128x128x64 512 NT bf16" "512x512x64 64 NN bf16" \
           "16x4096x4096 1 NT f16" "16x4096x14336 1 NT bf16" "128x4096x4096 1 NT f16" "128x4096x4096 1 NT bf16" "4096x4096x4096 1 NT bf16" "4096x4096x4096 1 NT f32"; do
  set -- $job
  run before /tmp/old/build/clgemm $1 $2 $3 $4
  run kept build-gpu/clgemm $1 $2 $3 $4
  export CLGEMM_TMA_KEPT_ACQUIRE=1; run kept+acquire build-gpu/clgemm $1 $2 $3 $4; unset CLGEMM_TMA_KEPT_ACQUIRE
done; done
echo "== test_kept_maps"; timeout 200 build-gpu/tests/test_kept_maps 2>&1 | tail -40
echo "== test_tma"; timeout 100 build-gpu/tests/test_tma 2>&1 | tail -2
cp host/lib/tma_map_cache.c /tmp/tmc.c
sed -i 's/    return memcmp(a->buf, b->buf, sizeof a->buf) == 0 \&\&/    return/' host/lib/tma_map_cache.c
meson compile -C build-gpu > /tmp/p1.log 2>&1 || tail /tmp/p1.log
echo "== planted: the key without its buffers"; timeout 200 build-gpu/tests/test_kept_maps 2>&1 | grep -E "FAIL|checks|handles" | head -12
cp /tmp/tmc.c host/lib/tma_map_cache.c
sed -i 's/if (c->slot\[i\].kept \&\& c->slot\[i\].epoch == epoch \&\& /if (c->slot[i].kept \&\& /' host/lib/tma_map_cache.c
meson compile -C build-gpu > /tmp/p2.log 2>&1 || tail /tmp/p2.log
echo "== planted: the epoch ignored"; timeout 200 build-gpu/tests/test_kept_maps 2>&1 | grep -E "FAIL|checks|handles" | head -12
cp /tmp/tmc.c host/lib/tma_map_cache.c
} > $P 2>&1
tail -5 $P
