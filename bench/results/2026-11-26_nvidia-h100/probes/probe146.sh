#!/usr/bin/env bash
# Probe 146: step 10's once-per-chunk bias fetch written as one macro (STORE_ROW / STORE_COL):
# the same cases as probe143's new side, one round, every run verified.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe146.txt
run() { timeout 100 build-gpu/clgemm --device nvidia --no-baseline --iters 40 --format json -q "$@" 2>>$OUT/probe146.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("error"), flush=True)' "$*"; }
{
cat .gpu/commit
for d in bf16 f16; do for e in none bias bias_relu; do run --size 4096 --dtype $d --epilogue $e --algo wgmma_tma; done; done
for e in none bias; do run --size 128x4096x4096 --trans NT --epilogue $e --algo tensor_core; done
} > $P 2>&1
cat $P
