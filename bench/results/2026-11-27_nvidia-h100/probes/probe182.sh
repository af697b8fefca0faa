#!/usr/bin/env bash
# Probe 182: the rules of this session (the working tree) against 78e0727 built beside it,
# two interleaved rounds: fp32 auto N T / N N at M 96..128 (the M <= 112 / <= 128 classes) and
# mirrored; TF32 tensor_core at 128 < M <= 512 N T (the wide form) and N N (split); what each
# chose; the wide form forced on N N beside; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe182.txt
F32="NT:128x28672x4096 NT:128x6144x4096 NT:128x4096x4096 NT:128x4096x14336 NT:120x4096x4096 NT:112x4096x4096 NT:100x5120x5120 NT:14336x128x4096 NT:4096x128x4096 NN:128x4096x4096 NN:128x28672x4096 NN:14336x128x4096"
T32="NT:512x6144x4096 NT:384x28672x4096 NT:448x11008x4096 NT:160x8192x8192 NT:512x4096x4096 NT:300x5120x5120 NT:256x4096x4096 NT:6144x512x4096 NN:512x6144x4096 NN:384x28672x4096 NN:448x11008x4096 NN:256x4096x4096 NN:512x4096x4096 NN:300x5120x5120"
one() { # exe round tag trans size algo...
  local exe=$1 round=$2 tag=$3 t=$4 sz=$5; shift 5
  $exe --device nvidia --no-baseline --format json -q --iters 30 --trans $t --size $sz "$@" 2>/dev/null | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"][:60], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or "")[:260] if sys.argv[2]=="r1" else "", flush=True)' "$round $tag $t $sz" $round || echo "$round $tag $t $sz: no JSON"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    export CLGEMM_CACHE_DIR=/tmp/c$b
    for c in $F32; do one $exe $round "$b f32" ${c%%:*} ${c#*:} --algo auto; done
    for c in $T32; do one $exe $round "$b tf32" ${c%%:*} ${c#*:} --algo tensor_core; done
  done
done
export CLGEMM_CACHE_DIR=/tmp/cnew
for c in NN:512x6144x4096 NN:384x28672x4096 NN:448x11008x4096; do
  one build-gpu/clgemm r1 "forced tf32" ${c%%:*} ${c#*:} --algo wgmma_tma:PACKA=3,SETMAXNREG=1,SWAP=1 --algo wgmma_tma:BM=128,BN=128,WGN=128,STAGES=5,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=2
done
args=""; for c in $F32; do args="$args fp32:${c#*:}:${c%%:*}"; done; for c in $T32; do args="$args tf32:${c#*:}:${c%%:*}"; done
python3 bench/cublas.py $args 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
