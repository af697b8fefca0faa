#!/usr/bin/env bash
# Probe 172: fp32 auto with the new M <= 512 rules (the working tree) against 0a49c28 built
# beside it, N T and N N, two interleaved rounds, shapes the rules were fitted at and others;
# what auto chose (its reason); cuBLAS fp32 after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe172.txt
SHAPES="256x4096x4096 512x4096x4096 200x6144x4096 384x28672x4096 256x4096x14336 512x5120x5120 300x3000x1000 160x8192x8192 448x11008x4096 256x2048x8192 129x4096x4096 128x4096x4096"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    export CLGEMM_CACHE_DIR=/tmp/c$b
    for t in NT NN; do for sz in $SHAPES; do
      printf '%s %s %s %s ' $round $b $t $sz
      $exe --device nvidia --no-baseline --format json -q --iters 30 --trans $t --size $sz --algo auto 2>/dev/null | python3 -c '
import json,sys; r=json.load(sys.stdin)["results"][0]["rows"][0]; print(r["status"], r["ms_median"], r["ms_min"], "|", r.get("chose", r.get("note", ""))[:160] if sys.argv[1]=="r1" else "")' $round
    done; done
  done
done
args=""; for t in NT NN; do for sz in $SHAPES; do args="$args fp32:$sz:$t"; done; done
python3 bench/cublas.py $args 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
