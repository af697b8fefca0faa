#!/usr/bin/env bash
# Probe 204 (after bench/device_session.sh built build-gpu at this commit; .gpu/head.tar.gz =
# git archive c4394ec): tf32x3 at M = 16 and 128 ran 4-24% slower in llama-6 (H100) and the
# H200's llama-2 than at 5231392 / c4394ec; a54d69f compiles its kernel as before 5738b49.
# Both commits side by side, interleaved, twice; TF32 and bf16 beside as controls.
source .gpu/setup.sh
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old
(cd /tmp/old && meson setup build --buildtype=release > /tmp/old.log 2>&1 && meson compile -C build >> /tmp/old.log 2>&1) || { tail -5 /tmp/old.log; }
P=$OUT/probe204.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:40], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:110], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
for s in 16x4096x14336 16x6144x4096 128x4096x4096; do
  for v in new old; do
    b=build-gpu/clgemm; [ $v = old ] && b=/tmp/old/build/clgemm
    $b --device nvidia --no-baseline --format json -q --iters 100 --trans NT --size $s --algo tensor_core_tf32x3 --algo tensor_core 2>>$OUT/probe204.err | show "$v rep$rep $s"
  done
done
done
} > $P 2>&1
tail -3 $P
