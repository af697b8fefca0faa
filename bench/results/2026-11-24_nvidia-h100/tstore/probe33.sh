#!/usr/bin/env bash
# Probe 33: (a) the TF32 PERSIST batch before TSTORE (b16fe79) and now, interleaved, to see
# whether layouts-16's 0.0548 ms (layouts-15: 0.0479) is the code or the machine; (b) TSTORE
# where no rule asks for it: 16-bit C at 4096^3, 8192^3, TF32 with a bf16 C, Llama M = 4096.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
rm -rf /tmp/old && mkdir -p /tmp/old && git archive b16fe79 | tar -x -C /tmp/old && cp -r .gpu /tmp/old/ &&
(cd /tmp/old && meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build_old.log 2>&1 || { tail -30 $OUT/build_old.log; }
P=$OUT/probe33.txt
run() { local C=$1 tag=$2 dt=$3 out=$4 sz=$5 b=$6 ep=$7 tr=$8; shift 8; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $out != f32 ] && o=(--out $out); [ $ep != none ] && o+=(--epilogue $ep)
  timeout 200 $C --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans $tr --size $sz --batch $b --iters 50 --format json "${a[@]}" 2>>$OUT/probe33.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' $tag $dt $out $sz $b $ep $tr; }
NEW=build-gpu/clgemm OLD=/tmp/old/build-gpu/clgemm
{
for rep in 1 2 3; do
  for sb in "512x512x64 64" "128x128x64 512"; do set -- $sb
    run $OLD old$rep f32 f32 $1 $2 none NN tensor_core
    run $NEW new$rep f32 f32 $1 $2 none NN tensor_core
  done
done
echo "a done at $(( $(date +%s) - T0 )) s"
for rep in 1 2; do
  for sz in 4096 8192; do
    run $NEW r$rep bf16 bf16 $sz 1 none NN wgmma_tma wgmma_tma:TSTORE=1
    run $NEW r$rep f16 f16 $sz 1 none NT wgmma_tma wgmma_tma:TSTORE=1
    run $NEW r$rep bf16 bf16 $sz 1 bias_gelu NN wgmma_tma wgmma_tma:TSTORE=1
    run $NEW r$rep f32 bf16 $sz 1 none NN wgmma_tma wgmma_tma:TSTORE=1
  done
  for sz in 4096x6144x4096 4096x28672x4096 4096x4096x14336; do
    run $NEW r$rep bf16 bf16 $sz 1 none NT tensor_core wgmma_tma:TSTORE=1
  done
  run $NEW r$rep bf16 bf16 512x4096x4096 1 none NT tensor_core "wgmma_tma:BM=128,BN=128,WGN=128,STAGES=4,TSTORE=1"
done
echo "b done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
cat $P
