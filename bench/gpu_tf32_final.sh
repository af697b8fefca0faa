#!/usr/bin/env bash
# The final command for the deep-ring step-10 kernels on Hopper: GPU correctness of every
# tensor-core row (tensor_core and tensor_core_tf32x3 run step 10 on sm_90), the registers,
# one clgemm process per size and data type with CLBlast (fp32/TF32/tf32x3 rows, then f16 and
# bf16 beside the best 48 KiB shape), the packed rows without their pre-pass
# (CLGEMM_TIME_LAST_KERNEL_ONLY, to take the time apart), odd sizes, the quick-start job, and
# cuBLAS fp32/TF32/f16/bf16 through PyTorch in the same command.
#   usage (repo root, .gpu carried): bash bench/gpu_tf32_final.sh
# Output: the terminal and $OUT (or ./bench-out; the device tool brings back 8 files, so run it
# as OUT=/tmp/r bash ... and tar /tmp/r into $OUT): session.log, f32_N.json,
# kernel_only_N.json, f16_N.json, bf16_N.json, odd_*.json, quick_start.txt, cublas.txt.
LOG=session.log
source bench/gpu_common.sh
echo "== correctness on the GPU"
CLGEMM_TEST_DEVICE=nvidia timeout 500 /tmp/b/tests/test_correctness tensor_core \
    tensor_core_tf32x3 wgmma_tma wgmma_tma_packed wgmma_tma_packed_tf32x3 wgmma_tma_tf32x3 \
    > "$out/correctness.txt" 2>&1
grep -v "^ok" "$out/correctness.txt" | tail -8
echo "== registers (-cl-nv-verbose)"
for v in wgmma_tma_packed wgmma_tma_packed_tf32x3 wgmma_tma wgmma_tma_tf32x3; do
    echo "$v: $(registers "$v")"
done
echo "16-bit wgmma_tma: $(registers wgmma_tma --dtype f16)"
OLD16="wgmma_tma:BM=64,BN=256,BK=16,STAGES=4,INFLIGHT=1,THREADS=160"
for n in 4096 8192; do
    echo "== fp32 data at $n (TF32, tf32x3, fp32)"
    timeout 200 $c --device nvidia --size $n --algo tensor_core --algo tensor_core_tf32x3 \
        --algo wgmma_tma_packed --algo wgmma_tma_packed:PACKA=1 --algo wgmma_tma_packed_tf32x3 \
        --algo wgmma_tma --algo wgmma_tma_tf32x3 --algo warp_tiled --format json --quiet \
        > "$out/f32_$n.json" 2>> "$out/err.txt"
    python3 bench/json_table.py "$out/f32_$n.json"
    CLGEMM_TIME_LAST_KERNEL_ONLY=1 timeout 100 $c --device nvidia --size $n \
        --algo wgmma_tma_packed --algo wgmma_tma_packed:PACKA=1 --algo wgmma_tma_packed_tf32x3 \
        --no-baseline --no-check --format json --quiet > "$out/kernel_only_$n.json" \
        2>> "$out/err.txt"
    echo "-- the packed rows without their pre-pass (kernel alone, unchecked):"
    python3 bench/json_table.py "$out/kernel_only_$n.json" | grep -v "^NVIDIA"
    for d in f16 bf16; do
        echo "== $d at $n"
        timeout 120 $c --device nvidia --size $n --dtype $d --algo tensor_core --algo "$OLD16" \
            --format json --quiet > "$out/${d}_$n.json" 2>> "$out/err.txt"
        python3 bench/json_table.py "$out/${d}_$n.json"
    done
done
for s in 4095 1000x3000x777; do
    echo "== odd size $s"
    timeout 100 $c --device nvidia --size $s --algo tensor_core --algo tensor_core_tf32x3 \
        --format json --quiet > "$out/odd_$s.json" 2>> "$out/err.txt"
    python3 bench/json_table.py "$out/odd_$s.json"
    timeout 100 $c --device nvidia --size $s --dtype bf16 --algo tensor_core \
        --format json --quiet > "$out/odd_bf16_$s.json" 2>> "$out/err.txt"
    python3 bench/json_table.py "$out/odd_bf16_$s.json" | grep -v "^NVIDIA"
done
echo "== the quick-start job (clgemm --size 2048: every algorithm)"
timeout 200 $c --size 2048 --quiet > "$out/quick_start.txt" 2>&1
awk 'NF > 6 {print $1, $NF}' "$out/quick_start.txt"
tail -3 "$out/err.txt"
echo "== cuBLAS (PyTorch) in the same command"
for m in "" --tf32 --f16 --bf16; do timeout 120 python3 bench/cublas_anchor.py $m 4096 8192; done \
    2>&1 | grep -v Warning | tee "$out/cublas.txt"
