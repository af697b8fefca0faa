#!/usr/bin/env bash
# TF32 with both operands by TMA (wgmma_tma_packed: a pre-pass writes B^T rounded to tf32, and
# with PACKA=1 A rounded) on Hopper: its GPU correctness cases, each variant's registers, one
# clgemm process per size with the other TF32 rows (wgmma_tma: B^T from registers; tensor_core,
# which runs wgmma_tma with A rounded on sm_90) and CLBlast, the same variants timed without
# their pre-pass (CLGEMM_TIME_LAST_KERNEL_ONLY, to take the time apart), and cuBLAS TF32.
#   usage (repo root, .gpu carried): bash bench/gpu_packed_session.sh
#   PK_VARIANTS: the variants, one per line; PK_SIZES (default 4096 8192).
# Output: the terminal and $OUT (or ./bench-out): session.log, packed_N.json,
# packed_kernel_only_N.json, cublas.txt.
LOG=session.log
source bench/gpu_common.sh
echo "== correctness on the GPU: wgmma_tma_packed and its test variants"
CLGEMM_TEST_DEVICE=nvidia timeout ${PK_TEST_TIMEOUT:-300} /tmp/b/tests/test_correctness \
    wgmma_tma_packed 2>&1 | grep -v "^ok" | tail -8
V=${PK_VARIANTS:-"wgmma_tma_packed
wgmma_tma_packed:PACKA=1
wgmma_tma_packed:INFLIGHT=0
wgmma_tma_packed:BK=16,STAGES=2
wgmma_tma_packed:BM=128,BN=256,STAGES=3,THREADS=288
wgmma_tma_packed:BM=128,BN=128,WGN=128,STAGES=5,THREADS=288
wgmma_tma_packed:BN=128,WGN=128,STAGES=7
wgmma_tma_packed:GM=16"}
echo "== registers"
for v in $V; do
    echo "$v: $(registers "$v")"
done
echo "== speed: one process per size, the variants beside wgmma_tma, tensor_core and CLBlast"
for n in ${PK_SIZES:-4096 8192}; do
    args=(--algo tensor_core --algo wgmma_tma)
    for v in $V; do args+=(--algo "$v"); done
    timeout ${PK_TIMEOUT:-200} $c --device nvidia --size $n "${args[@]}" --format json --quiet \
        > "$out/packed_$n.json" 2> "$out/err_$n.txt"
    python3 bench/json_table.py "$out/packed_$n.json"
    args=()
    for v in $V; do args+=(--algo "$v"); done
    CLGEMM_TIME_LAST_KERNEL_ONLY=1 timeout ${PK_TIMEOUT:-200} $c --device nvidia --size $n \
        "${args[@]}" --no-baseline --no-check --format json --quiet \
        > "$out/packed_kernel_only_$n.json" 2>> "$out/err_$n.txt"
    echo "-- the same without the pre-pass (kernel alone, unchecked):"
    python3 bench/json_table.py "$out/packed_kernel_only_$n.json" | grep -v "^NVIDIA"
done
echo "== cuBLAS TF32 (PyTorch) in the same command"
timeout 120 python3 bench/cublas_anchor.py --tf32 ${PK_SIZES:-4096 8192} 2>&1 | grep -v Warning \
    | tee "$out/cublas.txt"
