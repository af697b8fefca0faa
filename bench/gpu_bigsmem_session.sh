#!/usr/bin/env bash
# After the deep-ring defaults (bench/gpu_bigsmem_explore.sh): GPU correctness of every step-10
# row and of tensor_core (which runs them on sm_90), then the neighbours of the new defaults
# (bands, slices in flight, slots), the tf32x3 kernels (register-fed and packed hi/lo), the
# packed rows without their pre-pass, CLBlast in each process and cuBLAS in the same command.
#   usage (repo root, .gpu carried): bash bench/gpu_bigsmem_session.sh
LOG=session.log
source bench/gpu_common.sh
echo "== correctness on the GPU"
CLGEMM_TEST_DEVICE=nvidia timeout 500 /tmp/b/tests/test_correctness tensor_core wgmma_tma \
    wgmma_tma_packed wgmma_tma_tf32x3 2>&1 | grep -v "^ok" | tail -8
F16="wgmma_tma:GM=16
wgmma_tma:GM=64
wgmma_tma:INFLIGHT=1
wgmma_tma:STAGES=3
wgmma_tma:BK=32,STAGES=8"
TF32="wgmma_tma_packed:INFLIGHT=0
wgmma_tma_packed:GM=32
wgmma_tma_packed:GM=8
wgmma_tma_packed:STAGES=3
wgmma_tma_packed:PACKA=1"
X3="wgmma_tma_packed:SPLIT=1,BM=128,BN=128,WGN=128,BK=32,STAGES=3
wgmma_tma_packed:SPLIT=1,BM=128,BN=128,WGN=128,BK=32,STAGES=3,PROMOTE=4
wgmma_tma_packed:SPLIT=1,BM=128,BN=128,WGN=128,BK=16,STAGES=6,PROMOTE=4
wgmma_tma_packed:SPLIT=1,BM=128,BN=128,WGN=128,BK=32,STAGES=3,INFLIGHT=0
wgmma_tma_packed:SPLIT=1,BM=128,BN=64,WGN=64,BK=32,STAGES=4
wgmma_tma_packed:SPLIT=1,BM=64,BN=128,WGN=128,BK=32,STAGES=2,THREADS=160
wgmma_tma_tf32x3:BK=32,STAGES=4,PROMOTE=2
wgmma_tma_tf32x3:BK=32,STAGES=4,PROMOTE=4
wgmma_tma_tf32x3:BM=128,BN=128,THREADS=288,BK=32,STAGES=3,PROMOTE=2"
echo "== registers"
for v in wgmma_tma_packed $X3; do
    echo "$v: $(registers "$v")"
done
for n in 4096 8192; do
    echo "== f16 at $n"
    args=(--algo tensor_core)
    for v in $F16; do args+=(--algo "$v"); done
    timeout 150 $c --device nvidia --size $n --dtype f16 "${args[@]}" --format json --quiet \
        > "$out/f16_$n.json" 2>> "$out/err.txt"
    python3 bench/json_table.py "$out/f16_$n.json"
    echo "== TF32 and tf32x3 at $n"
    args=(--algo tensor_core --algo wgmma_tma --algo tensor_core_tf32x3 --algo warp_tiled)
    for v in $TF32 $X3; do args+=(--algo "$v"); done
    timeout 250 $c --device nvidia --size $n "${args[@]}" --format json --quiet \
        > "$out/f32_$n.json" 2>> "$out/err.txt"
    python3 bench/json_table.py "$out/f32_$n.json"
    CLGEMM_TIME_LAST_KERNEL_ONLY=1 timeout 100 $c --device nvidia --size $n \
        --algo wgmma_tma_packed --algo "wgmma_tma_packed:SPLIT=1,BM=128,BN=128,WGN=128,BK=32,STAGES=3" \
        --no-baseline --no-check --format json --quiet > "$out/kernel_only_$n.json" 2>> "$out/err.txt"
    echo "-- packed rows without their pre-pass (kernel alone, unchecked):"
    python3 bench/json_table.py "$out/kernel_only_$n.json" | grep -v "^NVIDIA"
done
tail -3 "$out/err.txt"
echo "== cuBLAS (PyTorch) in the same command"
for m in --f16 --tf32 ""; do timeout 120 python3 bench/cublas_anchor.py $m 4096 8192; done \
    2>&1 | grep -v Warning | tee "$out/cublas.txt"
