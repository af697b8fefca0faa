#!/usr/bin/env bash
# Probe 124: step 10's loaders (LOADER=1: a warpgroup of work-items reads 16-bit operands off 16
# bytes, cl/mma/tma_loader.h) against the aligned copy they replace (.gpu/old = HEAD before),
# tight leading dimensions (--ld-pad 0) against the aligned run of the same size; LOADER=1 on
# aligned operands; register counts.
source .gpu/setup.sh
build() { local d=$1 src=$2; [ -x $d/clgemm ] && (meson compile -C $d > /tmp/b.log 2>&1) || { rm -rf $d; (cd $src && meson setup $OLDPWD/$d --buildtype=release > /tmp/b.log 2>&1 && meson compile -C $OLDPWD/$d >> /tmp/b.log 2>&1) || { tail -20 /tmp/b.log; exit 1; }; }; }
build build-gpu .
(cd .gpu/old && meson setup ../../build-old --buildtype=release > /tmp/bo.log 2>&1 && ninja -C ../../build-old clgemm >> /tmp/bo.log 2>&1) || tail -20 /tmp/bo.log
P=$OUT/probe124.txt
run() { local bin=$1 sz=$2 tr=$3 dt=$4 pad=$5; shift 5; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $bin/clgemm --device nvidia --no-baseline --trans $tr --size $sz --dtype $dt $pad --iters 50 --format json -q "${a[@]}" 2>>$OUT/probe124.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' $bin $sz $tr $dt "${pad:-aligned}" || echo "$bin $sz $tr $dt $pad: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose build-gpu/clgemm --device nvidia --size 1024 --dtype bf16 --no-baseline --iters 1 --warmup 0 --algo wgmma_tma --algo wgmma_tma:LOADER=1 2>&1 | grep -i "registers\|status\|ok\|FAIL" | head -8
for round in 1 2; do for dt in bf16 f16; do
  for tr in NN NT TN TT; do
    run build-gpu 4095 $tr $dt "--ld-pad 0" tensor_core
    run build-old 4095 $tr $dt "--ld-pad 0" tensor_core
  done
  run build-gpu 4095 NN $dt "" tensor_core
  run build-gpu 4096 NN $dt "" tensor_core wgmma_tma:LOADER=1
  run build-gpu 4096 NT $dt "" tensor_core wgmma_tma:LOADER=1
  for sz in 1000x3000x777 777 128x4096x4095 16x4095x4096; do
    run build-gpu $sz NN $dt "--ld-pad 0" tensor_core
    run build-old $sz NN $dt "--ld-pad 0" tensor_core
    run build-gpu $sz NN $dt "" tensor_core
  done
  run build-gpu 16x4095x4096 NT $dt "--ld-pad 0" tensor_core
  run build-old 16x4095x4096 NT $dt "--ld-pad 0" tensor_core
done; done
for l in "" "--layout col"; do for b in "--batch 64 --size 512x512x64" "--batch 512 --size 128x128x64"; do
  for tr in NN NT; do
    timeout 100 build-gpu/clgemm --device nvidia --no-baseline --dtype bf16 --ld-pad 0 $l $b --trans $tr --iters 20 --algo tensor_core 2>&1 | tail -1 | sed "s/^/new $l $b $tr: /"
    timeout 100 build-old/clgemm --device nvidia --no-baseline --dtype bf16 --ld-pad 0 $l $b --trans $tr --iters 20 --algo tensor_core 2>&1 | tail -1 | sed "s/^/old $l $b $tr: /"
  done; done; done
} > $P 2>&1
tail -5 $P
