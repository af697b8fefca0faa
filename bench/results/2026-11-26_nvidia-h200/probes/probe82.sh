#!/usr/bin/env bash
# Probe 82: forms that put two groups on an SM (64-row tiles, rings under 113 KB), which
# faulted before 905159d (the map-slot race) and so never won a tuning run: TF32 and bf16 at
# the Llama M = 16 and 128 shapes (N T), against the rules (tensor_core) and cuBLAS in the
# same command.  Also: does cuBLAS round fp32 operands to TF32 at 4096^3?
source .gpu/setup.sh
P=$OUT/probe82.txt
run() { local tag=$1 dt=$2 sz=$3 tr=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe82.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("params"), flush=True)' $tag $dt $sz $tr || echo "$tag $dt $sz $tr : no JSON"; }
T="SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
  run tf32m128 f32 $s NT tensor_core "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,$T,SPLITK=2" "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,$T,SPLITK=4" \
    "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=3,$T,SPLITK=4" "wgmma_tma:BM=64,BN=64,WGN=64,STAGES=6,$T,SPLITK=2" \
    "wgmma_tma:BM=128,BN=128,WGN=128,STAGES=3,$T,SPLITK=4" "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,$T"
done
for s in 16x4096x4096 16x4096x14336 16x6144x4096; do
  run tf32m16 f32 $s NT tensor_core "wgmma_tma:BM=64,BN=16,WGN=16,STAGES=10,$T,SPLITK=4" "wgmma_tma:BM=64,BN=16,WGN=16,STAGES=10,$T,SPLITK=2" \
    "wgmma_tma:BM=64,BN=16,WGN=16,STAGES=8,$T,SPLITK=4"
done
I="SWAP=1,INFLIGHT=1"
for s in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096; do
  run b16m16 bf16 $s NT tensor_core "wgmma_tma:BM=64,BN=16,WGN=16,STAGES=8,$I" "wgmma_tma:BM=64,BN=16,WGN=16,STAGES=8,$I,SPLITK=2" \
    "wgmma_tma:BM=64,BN=16,WGN=16,STAGES=8,$I,SPLITK=4" "wgmma_tma:BM=64,BN=16,WGN=16,STAGES=6,$I,SPLITK=4"
done
for s in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
  run b16m128 bf16 $s NT tensor_core "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,$I,SPLITK=2" "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,$I,SPLITK=4" \
    "wgmma_tma:BM=64,BN=64,WGN=64,STAGES=6,$I,SPLITK=2" "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=4,$I"
done
python3 bench/cublas.py tf32:128x4096x4096:NT tf32:128x6144x4096:NT tf32:128x4096x14336:NT tf32:128x28672x4096:NT tf32:16x4096x4096:NT tf32:16x4096x14336:NT tf32:16x6144x4096:NT \
  bf16:16x4096x4096:NT bf16:16x6144x4096:NT bf16:16x4096x14336:NT bf16:16x28672x4096:NT bf16:128x4096x4096:NT bf16:128x6144x4096:NT bf16:128x4096x14336:NT bf16:128x28672x4096:NT 2>&1 | grep "^cublas"
python3 - <<'PY'
import torch
torch.backends.cuda.matmul.allow_tf32 = True
x = 1.0 + 0.75 * 2.0 ** -10  # rounds to 1 + 2^-10 in TF32, truncates to 1
for n, k in ((4096, 4096), (128, 4096), (8192, 8192)):
    a = torch.full((n, k), x, device='cuda'); b = torch.ones((k, n), device='cuda')
    c1 = (a @ b)[0, 0].item(); c2 = (b.t() @ a.t())[0, 0].item()
    print(f"cublas tf32 {n}x{n}x{k}: x in A {c1!r}, x in B {c2!r}; rounded {k * (1 + 2.0 ** -10)!r}, truncated {float(k)!r}")
PY
} > $P 2>&1
tail -3 $P
