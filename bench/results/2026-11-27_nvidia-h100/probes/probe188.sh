#!/usr/bin/env bash
# Probe 188: TF32 tensor_core at M <= 128 with the new N T rule (64-row blocks split, the 128-row tile split too as its wide form (wide_split); the
# working tree) against 02e3a75 built beside it, two
# interleaved rounds, every call verified; what each chose; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe188.txt
C="NT:128x4096x4096 NT:128x6144x4096 NT:128x4096x14336 NT:128x28672x4096 NT:100x4096x4096 NT:128x11008x4096 NT:64x4096x4096 NT:17x4096x4096 NT:32x8192x4096 NT:128x1024x4096 NT:128x2048x8192 NT:4096x128x4096 NN:128x4096x4096"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do for b in new old; do
  exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
  export CLGEMM_CACHE_DIR=/tmp/c$b
  for c in $C; do
    $exe --device nvidia --no-baseline --format json -q --iters 50 --trans ${c%%:*} --size ${c#*:} --algo tensor_core 2>/dev/null | python3 -c '
import json,sys; r=json.load(sys.stdin)["results"][0]["rows"][0]; print(sys.argv[1], r["status"], r["ms_median"], r["ms_min"], "|", (r.get("note") or "")[:150] if sys.argv[2]=="r1" else "")' "$round $b $c" $round || echo "$round $b $c: no JSON"
  done
done; done
args=""; for c in $C; do args="$args tf32:${c#*:}:${c%%:*}"; done
python3 bench/cublas.py $args 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
