#!/usr/bin/env bash
# TF32 and tf32x3 on Hopper measured: tensor_core and tensor_core_tf32x3 (which run step 10's
# kernels on sm_90), wgmma_tma, wgmma_tma_tf32x3 and variants, step 8's mma.sync kernels,
# warp_tiled (the best fp32 SIMT kernel: the error to match) and CLBlast in
# one clgemm process per size, cuBLAS fp32 and TF32 (PyTorch) in the same command.  The GPU
# correctness cases of these rows first, and each variant's registers.
#   usage (repo root, .gpu carried): bash bench/gpu_tf32x3_session.sh
#   X3_VARIANTS: the extra variants, one per line; X3_SIZES (default 4096 8192).
# Output: the terminal and $OUT (or ./bench-out): session.log, tf32x3_N.json, cublas.txt.
LOG=session.log
source bench/gpu_common.sh
echo "== correctness on the GPU: wgmma_tma, wgmma_tma_tf32x3 (and variants), tensor_core and"
echo "   tensor_core_tf32x3 (which run them on sm_90)"
CLGEMM_TEST_DEVICE=nvidia timeout ${X3_TEST_TIMEOUT:-400} /tmp/b/tests/test_correctness \
    wgmma_tma wgmma_tma_tf32x3 tensor_core tensor_core_tf32x3 2>&1 | grep -v "^ok" | tail -8
# Besides the rows (tensor_core and tensor_core_tf32x3 run step 10 on sm_90): step 8's
# mma.sync kernels (explicit parameters: the tuned 64 x 64 warp tiles), wgmma_tma's previous
# TF32 default, ROUNDA with two slices in flight, no slice in flight without ROUNDA, and tf32x3
# without promotion (faster, 16 times the error) and with chains of 4 slices.
V=${X3_VARIANTS:-"tensor_core:WM=64,WN=64,TM=32,TN=4
tensor_core_tf32x3:WM=64,WN=64,TM=32,TN=4
wgmma_tma:BM=128,BN=64,BK=16,STAGES=3,INFLIGHT=1,THREADS=160
wgmma_tma:ROUNDA=1
wgmma_tma:INFLIGHT=0,STAGES=3
wgmma_tma_tf32x3:PROMOTE=0
wgmma_tma_tf32x3:PROMOTE=4"}
echo "== registers"
for v in wgmma_tma wgmma_tma:ROUNDA=1,INFLIGHT=0,STAGES=3 wgmma_tma_tf32x3 $V; do
    echo "$v: $(registers "$v")"
done
echo "== speed: one process per size, all variants + CLBlast"
for n in ${X3_SIZES:-4096 8192}; do
    args=(--algo tensor_core --algo tensor_core_tf32x3 --algo wgmma_tma --algo wgmma_tma_tf32x3
          --algo warp_tiled)
    for v in $V; do args+=(--algo "$v"); done
    timeout ${X3_TIMEOUT:-280} $c --device nvidia --size $n "${args[@]}" --format json --quiet \
        > "$out/tf32x3_$n.json" 2> "$out/err_$n.txt"
    python3 bench/json_table.py "$out/tf32x3_$n.json"
done
echo "== cuBLAS (PyTorch) in the same command"
for m in "" --tf32; do timeout 120 python3 bench/cublas_anchor.py $m ${X3_SIZES:-4096 8192}; done \
    2>&1 | grep -v Warning | tee "$out/cublas.txt"
