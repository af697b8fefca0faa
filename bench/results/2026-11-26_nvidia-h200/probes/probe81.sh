#!/usr/bin/env bash
# Probe 81: (a) the map-slot race: 64-row tiles (two groups per SM, > 256 groups) before (old,
# 83b3a79) and after (new: maps published whole, TMA_MAPS_PUBLISH), each case its own process;
# (b) small calls old against new, interleaved (the publish's cost); (c) tf32x3 at M <= 128 by
# the new rule; (d) does cuBLAS round or truncate fp32 operands to TF32?
source .gpu/setup.sh
P=$OUT/probe81.txt
mkdir -p /tmp/old && tar xzf .gpu/old.tar.gz -C /tmp/old
(cd /tmp/old && meson setup build --buildtype=release >/dev/null && meson compile -C build >/dev/null) || echo "old build failed"
run() { local bin=$1 tag=$2 dt=$3 sz=$4 b=$5 tr=$6; shift 6; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 150 $bin --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans $tr --size $sz --batch $b --iters 50 --format json "${a[@]}" 2>>$OUT/probe81.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("max_rel_error", r.get("error")), r.get("params"), flush=True)' $tag $dt $sz $b $tr || echo "$tag $dt $sz $b $tr $* : no JSON (exit ${PIPESTATUS[0]})"; }
NEW=build-gpu/clgemm OLD=/tmp/old/build/clgemm
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do for t in old new; do bin=$NEW; [ $t = old ] && bin=$OLD
  run $bin fault-$t f32 2048 1 NN "wgmma_tma:BM=64,BN=128,WGN=128,SPLITK=2"
  run $bin fault-$t f32 4096 1 NN "wgmma_tma:BM=64,BN=128,WGN=128"
  run $bin fault-$t bf16 4096 1 NT "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=3"
  run $bin fault-$t bf16 8192 1 NT "wgmma_tma:BM=64,BN=128,WGN=128,STAGES=3"
done; done
for round in 1 2; do for t in old new; do bin=$NEW; [ $t = old ] && bin=$OLD
  run $bin small-$t bf16 16x4096x4096 1 NT tensor_core
  run $bin small-$t bf16 128x128x64 512 NT tensor_core
  run $bin small-$t f32 512x512x64 64 NN tensor_core
  run $bin small-$t bf16 4096 1 NT tensor_core
done; done
for s in "128x4096x4096 NT" "128x6144x4096 NT" "128x4096x14336 NT" "128x28672x4096 NT" "128x4096x4096 NN" "100x3000x1000 NN" "64x4096x4096 TN"; do set -- $s
  run $NEW x3 f32 $1 1 $2 tensor_core_tf32x3 auto
done
python3 bench/cublas.py fp32:128x4096x4096:NT fp32:128x6144x4096:NT fp32:128x4096x14336:NT fp32:128x28672x4096:NT fp32:128x4096x4096 fp32:100x3000x1000 2>&1 | grep "^cublas"
python3 - <<'PY'
import torch
torch.backends.cuda.matmul.allow_tf32 = True
K = 256
# 1 + 3/4 of a TF32 ulp (2^-10): rounds up to 1 + 2^-10, truncates to 1
x = 1.0 + 0.75 * 2.0 ** -10
a = torch.full((128, K), x, device='cuda'); b = torch.ones((K, 128), device='cuda')
c = (a @ b)[0, 0].item()
print(f"cublas tf32 rounding: sum of {K} x (1 + 0.75 ulp) = {c!r}; rounded operands give {K * (1 + 2.0 ** -10)!r}, truncated {float(K)!r}")
a = torch.ones((128, K), device='cuda'); b = torch.full((K, 128), x, device='cuda')
print(f"cublas tf32 rounding (x in B): {(a @ b)[0, 0].item()!r}")
PY
} > $P 2>&1
tail -3 $P
