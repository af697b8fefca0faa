#!/usr/bin/env bash
# Probe 228: step 11 (skinny) with an L2 prefetch of B PF turns of a lane ahead (N T), fp32
# M = 16 and M = 1 rules' tiles, cold L2, twice.
source .gpu/setup.sh
P=$OUT/probe228.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:70], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), (r.get("note") or r.get("message") or "")[5:90], flush=True)' "$1" || echo "$1: no JSON"; }
M16="skinny:WG=256,KT=16,RN=4,UNROLL=1,AL=512,BM=16"
M1="skinny:WG=256,KT=128,RN=4,UNROLL=2,BM=1"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
for sk in "16x4096x4096 4" "16x4096x16384 4" "16x4096x14336 4" "16x28672x4096 1" "16x6144x4096 2"; do
  set -- $sk
  a=(--algo auto); for pf in 0 2 4 8 16 32; do a+=(--algo "$M16,SPLITK=$2,PF=$pf"); done
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --cold-l2 --trans NT --size $1 "${a[@]}" 2>>$OUT/probe228.err | show "rep$rep $1"
done
for s in 1x4096x4096 1x4096x16384 1x28672x4096; do
  a=(--algo auto); for pf in 0 1 2 4 8; do a+=(--algo "$M1,PF=$pf"); done
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --cold-l2 --trans NT --size $s "${a[@]}" 2>>$OUT/probe228.err | show "rep$rep $s"
  a=(--algo tensor_core); for pf in 0 2 4 8; do a+=(--algo "$M1,PF=$pf"); done
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --cold-l2 --dtype bf16 --trans NT --size $s "${a[@]}" 2>>$OUT/probe228.err | show "rep$rep bf16 $s"
done
done
} > $P 2>&1
cat $P
