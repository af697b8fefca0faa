#!/usr/bin/env bash
# Probe 183: split-K's short rest (the working tree: slices of floor(K / S) rounded down to 8,
# the rest < 8 S values a second launch) against 9bee068 (ceil(K / S) rounded up: the rest
# about a slice long), forced counts on step 7 at K that S does not cut evenly, and auto at
# odd K; two interleaved rounds; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe183.txt
one() { # exe tag trans size algo...
  local exe=$1 tag=$2 t=$3 sz=$4; shift 4
  $exe --device nvidia --no-baseline --format json -q --iters 30 --trans $t --size $sz "$@" 2>/dev/null | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"][:70], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or "")[:200], flush=True)' "$tag $t $sz" || echo "$tag $t $sz: no JSON"
}
S2=warp_tiled:SWAP=1,READT=0; RT=warp_tiled:READT=1; PL=warp_tiled
FORCED="NT/128x4096x4096/$S2/1,2,3,4,5,6,7,8 NT/100x3000x777/$RT/1,2,3,4,5,6,7,8 NN/100x3000x777/$PL/1,2,3,4,5,6,8 NN/128x4096x1000/$PL/1,2,3,4,5,6,8 NT/300x3000x1000/$S2/1,2,3,4,6 NT/256x4096x14336/$S2/1,2,3,4 NT/200x3000x1000/$S2/1,2,3,4,6 NT/32x8192x1000/$RT/1,2,3,4,5,6,8"
AUTO="NT:100x3000x777 NN:100x3000x777 NT:128x4096x1000 NN:128x4096x1000 NT:300x3000x1000 NN:64x5120x1000 NT:32x8192x1000 NT:200x3000x1000 NT:96x3000x1000 NT:128x11008x3000 NN:256x3000x777"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    export CLGEMM_CACHE_DIR=/tmp/c$b
    for c in $FORCED; do
      IFS=/ read t sz algo counts <<< "$c"; args=""
      for s in ${counts//,/ }; do args="$args --algo $algo,SPLITK=$s"; done
      one $exe "$round $b forced" $t $sz $args
    done
    [ -n "$NOAUTO" ] || for c in $AUTO; do one $exe "$round $b auto" ${c%%:*} ${c#*:} --algo auto; done
  done
done
args=""; for c in $AUTO; do args="$args fp32:${c#*:}:${c%%:*}"; done
[ -n "$NOAUTO" ] || python3 bench/cublas.py $args 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
