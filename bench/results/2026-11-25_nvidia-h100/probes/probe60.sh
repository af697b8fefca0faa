#!/usr/bin/env bash
# Probe 60: 16-bit data at M = 128 with step 10's one-launch split of K, which the 16-bit
# M <= 128 rules (tuned 2026-11-24 03:33, before e52e355 put the split in one launch) never
# met: BM = 64 / 128 row tiles and 64-wide tiles, SPLITK 1..4, f16 and bf16, NT, C in the
# data's type, at the four Llama widths; the M = 16 rule with and without a split again; the
# f16 batches the layouts preset leaves out; cuBLAS on the same jobs in the same command.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
P=$OUT/probe60.txt
run() { local tag=$1 dt=$2 sz=$3 b=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 300 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt --out $dt --trans NT --size $sz --batch $b --iters 100 --format json "${a[@]}" 2>>$OUT/probe60.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), (r.get("note") or "")[:60], flush=True)' $tag $dt $sz $b; }
R="BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1"
R128="BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,INFLIGHT=1"
R64="BM=64,BN=64,WGN=64,STAGES=12,SWAP=1,INFLIGHT=1"
S16="BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=1"
{
for rep in 1 2; do
  for dt in f16 bf16; do
    for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
      a=(tensor_core)
      for s in 1 2 3 4; do a+=("wgmma_tma:$R,SPLITK=$s" "wgmma_tma:$R128,SPLITK=$s"); done
      for s in 1 2; do a+=("wgmma_tma:$R64,SPLITK=$s"); done
      run a$rep $dt $sz 1 "${a[@]}"
    done
    run m$rep $dt 16x4096x4096 1 tensor_core "wgmma_tma:$S16,SPLITK=2" "wgmma_tma:BM=64,BN=16,WGN=16,STAGES=8,SWAP=1,INFLIGHT=1,SPLITK=2"
    run b$rep $dt 512x512x64 64 tensor_core
    run b$rep $dt 128x128x64 512 tensor_core
  done
done
echo "clgemm done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
J=""
for dt in f16 bf16; do for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096 16x4096x4096; do J="$J $dt:$sz:NT:r100"; done
  J="$J $dt:512x512x64:b64 $dt:128x128x64:b512"; done
python3 bench/cublas.py $J > $OUT/cublas60.json 2>>$OUT/probe60.err
echo "all done at $(( $(date +%s) - T0 )) s" >> $P
tail -2 $P
