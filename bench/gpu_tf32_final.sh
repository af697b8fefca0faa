#!/usr/bin/env bash
# The TF32 rows on Hopper after wgmma_tma_packed (B^T packed by a pre-pass, both operands by
# TMA): GPU correctness of tensor_core (which runs it on sm_90) and wgmma_tma_packed, the
# registers, one clgemm process per size with every TF32/tf32x3 row, warp_tiled and CLBlast,
# the packed kernels again without their pre-pass (CLGEMM_TIME_LAST_KERNEL_ONLY, to take the
# time apart), odd sizes, two 16-bit tile shapes with 64-byte rows for A, the quick-start job,
# and cuBLAS fp32/TF32/f16 through PyTorch in the same command.
#   usage (repo root, .gpu carried): bash bench/gpu_tf32_final.sh
# Output: the terminal and $OUT (or ./bench-out): session.log, tf32_N.json,
# tf32_kernel_only_N.json, odd_*.json, f16_N.json, quick_start.txt, cublas.txt.
LOG=session.log
source bench/gpu_common.sh
echo "== correctness on the GPU: tensor_core (fp32 -> wgmma_tma_packed, 16-bit -> wgmma_tma),"
echo "   wgmma_tma_packed and its test variants"
CLGEMM_TEST_DEVICE=nvidia timeout 400 /tmp/b/tests/test_correctness tensor_core \
    wgmma_tma_packed 2>&1 | grep -v "^ok" | tail -8
echo "== registers of the packed kernel (default and PACKA=1)"
for v in wgmma_tma_packed wgmma_tma_packed:PACKA=1; do
    echo "$v: $(CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 \
        timeout 60 $c --device nvidia --algo "$v" --no-baseline --size 256 --iters 1 \
        --warmup 0 2>&1 | grep -E "registers|spill|serializ" | tr -s ' \n' ' ')"
done
P="wgmma_tma_packed wgmma_tma_packed:PACKA=1"
for n in 4096 8192; do
    echo "== TF32 and tf32x3 at $n: one process with CLBlast"
    args=(--algo tensor_core --algo tensor_core_tf32x3 --algo wgmma_tma --algo warp_tiled)
    for v in $P; do args+=(--algo "$v"); done
    timeout 200 $c --device nvidia --size $n "${args[@]}" --format json --quiet \
        > "$out/tf32_$n.json" 2> "$out/err_$n.txt"
    python3 bench/json_table.py "$out/tf32_$n.json"
    args=()
    for v in $P; do args+=(--algo "$v"); done
    CLGEMM_TIME_LAST_KERNEL_ONLY=1 timeout 100 $c --device nvidia --size $n "${args[@]}" \
        --no-baseline --no-check --format json --quiet > "$out/tf32_kernel_only_$n.json" \
        2>> "$out/err_$n.txt"
    echo "-- the packed rows without their pre-pass (kernel alone, unchecked):"
    python3 bench/json_table.py "$out/tf32_kernel_only_$n.json" | grep -v "^NVIDIA"
done
for s in 4095 1000x3000x777; do
    echo "== odd size $s"
    timeout 100 $c --device nvidia --size $s --algo tensor_core --algo wgmma_tma \
        --format json --quiet > "$out/odd_$s.json" 2>> "$out/err_odd.txt"
    python3 bench/json_table.py "$out/odd_$s.json"
done
for n in 4096 8192; do
    echo "== f16 at $n: the default and A's rows at 64 bytes (BK 32)"
    timeout 150 $c --device nvidia --size $n --dtype f16 --algo tensor_core \
        --algo wgmma_tma:BM=64,BN=256,BK=32,STAGES=2 \
        --algo wgmma_tma:BM=128,BN=128,WGN=128,BK=32,STAGES=2,THREADS=288 \
        --format json --quiet > "$out/f16_$n.json" 2>> "$out/err_f16.txt"
    python3 bench/json_table.py "$out/f16_$n.json"
done
echo "== the quick-start job (clgemm --size 2048: every algorithm, status column)"
timeout 200 $c --size 2048 --quiet 2>&1 | tee "$out/quick_start.txt" | awk '{print $1, $NF}'
echo "== cuBLAS (PyTorch) in the same command"
for m in "" --tf32 --f16; do timeout 120 python3 bench/cublas_anchor.py $m 4096 8192; done \
    2>&1 | grep -v Warning | tee "$out/cublas.txt"
