#!/usr/bin/env bash
# Probe 198 (after bench/device_session.sh tests built build-gpu at this commit): step 10 with
# B copied in boxes of N rows where N < BN (this commit) against boxes of BN rows (the commit
# before), bf16 and TF32 N T at 16 < M < 128, the rules' choice (tensor_core); cuBLAS beside.
source .gpu/setup.sh
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old  # the commit before, archived here (the device's .git is stale)
(cd /tmp/old && meson setup build --buildtype=release > /tmp/old.log 2>&1 && meson compile -C build >> /tmp/old.log 2>&1) || { tail -5 /tmp/old.log; }
P=$OUT/probe198.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:60], flush=True)' "$1" || echo "$1: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
jobs=""
for job in "bf16 24" "bf16 48" "bf16 80" "bf16 100" "bf16 112" "bf16 128" "f32 24" "f32 48" "f32 80" "f32 100"; do
  set -- $job
  o=$([ $1 = bf16 ] && echo "--out bf16")
  for v in new old; do
    b=build-gpu/clgemm; [ $v = old ] && b=/tmp/old/build/clgemm
    $b --device nvidia --no-baseline --format json -q --iters 50 --trans NT --dtype $1 $o --size ${2}x4096x4096 --algo tensor_core 2>/dev/null | show "$v $1 ${2}x4096x4096"
  done
  jobs="$jobs $([ $1 = bf16 ] && echo bf16 || echo tf32):${2}x4096x4096:NT"
done
python3 bench/cublas.py $jobs 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
