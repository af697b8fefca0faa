#!/usr/bin/env bash
# Probe 192: fp32 M = 16, N T: the rule (BM = 16, A staged, split 1.75 per CU) against 8- and
# 4-row blocks (now numbered so that a column block's row blocks run together, B from the L2
# the second time), more columns per work-item, smaller groups, with and without the
# local-memory ring (ASYNC).
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe192.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), "|", (r.get("note") or "")[:90], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
S=skinny:UNROLL=1,AL=512
for sz in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096; do
  a="--algo auto"
  for s in 1 2 4; do
    a="$a --algo $S,WG=256,KT=16,RN=8,BM=8,SPLITK=$s --algo $S,WG=256,KT=16,RN=8,BM=8,ASYNC=3,SPLITK=$s"
    a="$a --algo $S,WG=256,KT=16,RN=4,BM=8,SPLITK=$s --algo $S,WG=256,KT=16,RN=4,BM=8,ASYNC=3,SPLITK=$s"
    a="$a --algo $S,WG=256,KT=8,RN=4,BM=8,ASYNC=3,SPLITK=$s --algo $S,WG=256,KT=16,RN=8,BM=4,ASYNC=3,SPLITK=$s"
    a="$a --algo $S,WG=128,KT=16,RN=4,BM=16,ASYNC=3,SPLITK=$s --algo $S,WG=128,KT=16,RN=4,BM=16,SPLITK=$s"
  done
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 --trans NT --size $sz $a 2>/dev/null | show "f32 $sz"
done
} > $P 2>&1
tail -3 $P
