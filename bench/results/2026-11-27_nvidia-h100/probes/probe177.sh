#!/usr/bin/env bash
# Probe 177: 16-bit M <= 16 with A stored K x M (T N, T T), which the rule's 16-column swapped
# tile cannot take (swapped, its B is A stored K x M: a 16-bit B stored K x N needs 64-column
# tiles), so tensor_core runs its default: the default against the 64-column swapped tile at
# 8 and 12 stages, and N T with the rule for reference; two rounds; cuBLAS after.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe177.txt
run() { local tag=$1; shift
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 50 "$@" 2>>$OUT/probe177.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" || echo "$tag $*: no JSON"; }
W=wgmma_tma:BM=64,BN=64,WGN=64,SWAP=1,INFLIGHT=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for round in r1 r2; do for sz in 16x4096x4096 16x28672x4096 16x4096x14336 8x6144x4096; do
  for t in TT TN; do
    run "$round bf16 $t $sz" --trans $t --size $sz --dtype bf16 --out bf16 --algo tensor_core --algo $W,STAGES=8 --algo $W,STAGES=12
  done
  run "$round bf16 NT $sz" --trans NT --size $sz --dtype bf16 --out bf16 --algo tensor_core
done; done
run "f16 TT 16x4096x4096" --trans TT --size 16x4096x4096 --dtype f16 --out f16 --algo tensor_core --algo $W,STAGES=8 --algo $W,STAGES=12
python3 bench/cublas.py bf16:16x4096x4096:TT bf16:16x4096x4096:TN bf16:16x4096x4096:NT bf16:16x28672x4096:TT bf16:16x28672x4096:TN bf16:16x4096x14336:TT bf16:16x4096x14336:TN bf16:8x6144x4096:TT 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
