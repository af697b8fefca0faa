#!/usr/bin/env bash
# Probe 184: with split-K's rest cut short (70a6950), every count 1..16 on step 7 swapped (the
# N T rules at 120 < M <= 512) and plain (N N) at the Llama M = 128 shapes and others, so that
# the split model can be refitted now that uneven counts cost no second full launch.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe184.txt
one() { local tag=$1 t=$2 sz=$3; shift 3
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 30 --trans $t --size $sz "$@" 2>/dev/null | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"][:70], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or "")[:200], flush=True)' "$tag $t $sz" || echo "$tag $t $sz: no JSON"
}
S2=warp_tiled:SWAP=1,READT=0; PL=warp_tiled:BK=8
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for c in NT/128x4096x4096/$S2 NT/128x6144x4096/$S2 NT/128x4096x14336/$S2 NT/128x28672x4096/$S2 NT/256x4096x4096/$S2 NT/200x3000x1000/$S2 NT/300x3000x1000/$S2 NT/512x5120x5120/$S2 NN/128x4096x4096/$PL NN/128x6144x4096/$PL NN/256x4096x4096/$PL; do
  IFS=/ read t sz algo <<< "$c"; args="--algo auto"
  for s in $(seq 1 16); do args="$args --algo $algo,SPLITK=$s"; done
  one "split" $t $sz $args
done
} > $P 2>&1
tail -3 $P
