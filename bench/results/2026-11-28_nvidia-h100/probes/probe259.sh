#!/usr/bin/env bash
# Probe 259 (H100): llama at 8852baa read TF32 4096x28672x4096 N T at 2.616 ms against 2.511
# in llama-9, with nothing on its path changed but the plan.c split (3df1a69): the commit
# before it (e0b1486, git archive) built beside HEAD, three interleaved rounds, N T and N N,
# and 4096^3 N T.  Then the device's tests (bench/device_session.sh tests) follow in the same
# command.
source .gpu/setup.sh
P=$OUT/probe259.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
rm -rf /tmp/old && mkdir -p /tmp/old && git archive e0b1486 | tar -x -C /tmp/old &&
  (cd /tmp/old && meson setup b --buildtype=release && meson compile -C b) > $OUT/build_old.log 2>&1 || { tail -30 $OUT/build_old.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), (r.get("note") or r.get("params") or "")[:100], flush=True)' "$1" || echo "$1: no JSON"; }
run() { local tag=$1 bin=$2; shift 2; timeout 90 $bin --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe259.err | show "$tag"; }
{
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; cat .gpu/commit; date -u
for r in 1 2 3; do
  for b in new old; do
    bin=build-gpu/clgemm; [ $b = old ] && bin=/tmp/old/b/clgemm
    run "r$r $b NT 4096x28672x4096" $bin --trans NT --size 4096x28672x4096 --iters 20 --algo tensor_core
    run "r$r $b NN 4096x28672x4096" $bin --size 4096x28672x4096 --iters 20 --algo tensor_core
    run "r$r $b NT 4096" $bin --trans NT --size 4096 --iters 50 --algo tensor_core
  done
done
nvidia-smi --query-gpu=temperature.gpu,clocks.sm,power.draw --format=csv,noheader
} > $P 2>&1
cat $P
