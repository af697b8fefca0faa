#!/usr/bin/env bash
# Probe 134: step 10's epilogue applied in the registers before the staged stores (beta 0, whole
# tiles; GELU now staged too) against HEAD before it (.gpu/old, whose stores are the same as
# c42dc18's), 4096^3 plain / bias / bias_gelu, three interleaved rounds; registers.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
[ -x build-old/clgemm ] || (cd .gpu/old && meson setup ../../build-old --buildtype=release > /tmp/bo.log 2>&1 && ninja -C ../../build-old clgemm >> /tmp/bo.log 2>&1) || tail -20 /tmp/bo.log
P=$OUT/probe134.txt
run() { local bin=$1; shift
  timeout 200 $bin/clgemm --device nvidia --no-baseline --size 4096 --iters 30 --format json -q "$@" 2>>$OUT/probe134.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$bin" "$*" || echo "$bin $*: no JSON"; }
{
cat .gpu/commit
for b in build-gpu build-old; do
CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose $b/clgemm --device nvidia --size 1024 --dtype bf16 --epilogue bias_gelu --no-baseline --iters 1 --algo wgmma_tma 2>&1 | grep -E "Used|spill" | grep -v " 0 bytes spill" | sed "s/^/$b bias_gelu: /"
done
for round in 1 2 3; do for b in build-gpu build-old; do
  for dt in bf16 f16; do
    run $b --dtype $dt --algo tensor_core
    run $b --dtype $dt --algo tensor_core --epilogue bias
    run $b --dtype $dt --algo tensor_core --epilogue bias_gelu
    run $b --dtype $dt --algo tensor_core --epilogue gelu
    run $b --dtype $dt --algo tensor_core --epilogue bias_gelu --beta 0.5
  done
  run $b --algo tensor_core
  run $b --algo tensor_core --epilogue bias_gelu
  run $b --algo tensor_core --epilogue bias_relu
done; done
} > $P 2>&1
tail -3 $P
