#!/usr/bin/env bash
# Probe 32: TSTORE after the fixes (its blocks after the ring with PERSIST whatever STAGED
# says; C mapped only where its rows end on 16 bytes): the layouts tests with the real
# matrix units, GELU batches, 4096^3 and 8192^3 with a 16-bit C; then the layouts preset.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
C=build-gpu/clgemm
P=$OUT/probe32.txt
run() { local tag=$1 dt=$2 out=$3 sz=$4 b=$5 ep=$6; shift 6; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $out != f32 ] && o=(--out $out); [ $ep != none ] && o+=(--epilogue $ep)
  timeout 200 $C --device nvidia --no-baseline --dtype $dt "${o[@]}" --size $sz --batch $b --iters 50 --format json "${a[@]}" 2>>$OUT/probe32.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("error"), flush=True)' $tag $dt $out $sz $b $ep; }
W="wgmma_tma:BN=128,WGN=128,STAGES=4,PERSIST=1"
{
( export CLGEMM_TEST_DEVICE=nvidia CLGEMM_EMULATE_MATRIX=0
timeout 150 build-gpu/tests/test_layouts > $OUT/layouts_real.txt 2>&1; echo "test_layouts rc $?"
grep -E "^FAIL|TSTORE" $OUT/layouts_real.txt | cut -c1-200 | head -12
timeout 100 build-gpu/tests/test_correctness layouts:1/6 > $OUT/corr_layouts_real.txt 2>&1; echo "correctness layouts rc $?"
grep -E "^FAIL|cases" $OUT/corr_layouts_real.txt | cut -c1-250 | head -12 )
echo "tests done at $(( $(date +%s) - T0 )) s"
for rep in 1 2; do
  for sb in "512x512x64 64" "128x128x64 512"; do set -- $sb
    run r$rep bf16 bf16 $1 $2 bias_gelu "$W" "$W,TSTORE=1"
    run r$rep f16 f16 $1 $2 gelu "$W" "$W,TSTORE=1"
  done
  for sz in 4096 8192; do
    run r$rep bf16 bf16 $sz 1 none wgmma_tma wgmma_tma:TSTORE=1
    run r$rep f16 f16 $sz 1 none wgmma_tma wgmma_tma:TSTORE=1
    run r$rep bf16 bf16 $sz 1 bias_gelu wgmma_tma wgmma_tma:TSTORE=1
  done
done
echo "clgemm done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
cat $P
bash bench/device_session.sh --budget 260 layouts
echo "total $(( $(date +%s) - T0 )) s"
