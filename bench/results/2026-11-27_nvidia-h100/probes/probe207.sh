#!/usr/bin/env bash
# Probe 207 (after bench/device_session.sh built build-gpu): 16-bit M <= 16 with a long K.
# The M <= 16 rule (BM=64,BN=16, swapped) runs N / 64 groups unsplit: 64 of 132 SMs stream
# the weight at N = 4096, and 16x4096x14336 reached 77% of 3.35 TB/s in llama-6 (issue #17
# asks 80%).  Split K in 2-4 at long K, warm and cold, with cuBLAS beside.
source .gpu/setup.sh
P=$OUT/probe207.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:70], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), flush=True)' "$1" || echo "$1: no JSON"; }
R=BM=64,BN=16,BK=64,WGN=16,STAGES=16,INFLIGHT=1,GM=32,SWAP=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for d in bf16 f16; do
  for s in 16x4096x14336 8x4096x11008 16x4096x4096 16x6144x4096 4x4096x14336; do
    for cold in "" --cold-l2; do
      [ -n "$cold" ] && [ $s != 16x4096x14336 ] && [ $s != 16x4096x4096 ] && continue
      build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NT --dtype $d --out $d $cold --size $s --algo tensor_core --algo wgmma_tma:$R,SPLITK=2 --algo wgmma_tma:$R,SPLITK=3 --algo wgmma_tma:$R,SPLITK=4 2>>$OUT/probe207.err | show "$d $s ${cold:-warm}"
    done
  done
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --trans NN --dtype $d --out $d --size 16x4096x14336 --algo tensor_core --algo wgmma_tma:$R,SPLITK=2 --algo wgmma_tma:$R,SPLITK=3 2>>$OUT/probe207.err | show "$d NN 16x4096x14336 warm"
done
python3 bench/cublas.py bf16:16x4096x14336:NT bf16:16x4096x14336:NT:cold f16:16x4096x14336:NT f16:16x4096x14336:NT:cold bf16:8x4096x11008:NT bf16:16x4096x4096:NT bf16:16x4096x4096:NT:cold bf16:16x6144x4096:NT bf16:4x4096x14336:NT bf16:16x4096x14336:NN 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
