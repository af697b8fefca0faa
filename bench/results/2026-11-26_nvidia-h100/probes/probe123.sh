#!/usr/bin/env bash
# Probe 123: 16-bit at M = 128 (X W^T): the rule (64-row weight tiles, unsplit: 64 groups at N =
# 4096, each reading all of X) against 128-row weight tiles split over K so that the groups
# fill the SMs once (half the reads of X), STAGES 4 and 6; cuBLAS beside.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe123.txt
run() { local sz=$1 tr=$2 dt=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --dtype $dt --out $dt --iters 100 --format json -q "${a[@]}" 2>>$OUT/probe123.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' $sz $tr $dt || echo "$sz $tr : no JSON"; }
B=wgmma_tma:BM=128,BN=128,WGN=128,SWAP=1,INFLIGHT=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for round in 1 2; do for dt in bf16 f16; do
  run 128x4096x4096 NT $dt tensor_core $B,STAGES=6,SPLITK=4 $B,STAGES=4,SPLITK=4 $B,STAGES=6,SPLITK=2 $B,STAGES=6,SPLITK=3
  run 128x6144x4096 NT $dt tensor_core $B,STAGES=6,SPLITK=2 $B,STAGES=6,SPLITK=3 $B,STAGES=4,SPLITK=3
  run 128x4096x14336 NT $dt tensor_core $B,STAGES=6,SPLITK=4 $B,STAGES=6,SPLITK=3
  run 128x28672x4096 NT $dt tensor_core $B,STAGES=6 $B,STAGES=4
done; done
python3 bench/cublas.py f16:128x4096x4096:NT bf16:128x4096x4096:NT f16:128x6144x4096:NT bf16:128x6144x4096:NT bf16:128x4096x14336:NT bf16:128x28672x4096:NT 2>&1 | grep "^cublas"
} > $P 2>&1
tail -5 $P
