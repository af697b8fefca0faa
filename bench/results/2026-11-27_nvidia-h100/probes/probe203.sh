#!/usr/bin/env bash
# Probe 203: 16-bit N T at M = 128 ran 0.0154 ms in llama-5 (5231392) and 0.019 in llama-6
# (8dd9a31, another machine) with the same tile; probe198's machine ran 0.019 with 2494a24
# too.  The two commits built side by side on one machine (5231392 from an archive: the
# device's .git is stale), interleaved, cuBLAS beside.
source .gpu/setup.sh
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old
(cd /tmp/old && meson setup build --buildtype=release > /tmp/old.log 2>&1 && meson compile -C build >> /tmp/old.log 2>&1) || { tail -5 /tmp/old.log; }
P=$OUT/probe203.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:50], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:110], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
for job in "f16 128x4096x4096" "bf16 128x4096x4096" "bf16 128x6144x4096" "bf16 16x4096x4096" "bf16 64x4096x4096"; do
  set -- $job
  for v in new old; do
    b=build-gpu/clgemm; [ $v = old ] && b=/tmp/old/build/clgemm
    $b --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype $1 --out $1 --size $2 --algo tensor_core 2>>$OUT/probe203.err | show "$v rep$rep $1 $2"
  done
done
done
python3 bench/cublas.py f16:128x4096x4096:NT bf16:128x4096x4096:NT bf16:128x6144x4096:NT bf16:16x4096x4096:NT bf16:64x4096x4096:NT 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
