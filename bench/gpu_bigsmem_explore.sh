#!/usr/bin/env bash
# Step 10's kernels with the local memory that Hopper really gives a work-group (227 KiB,
# although NVIDIA's OpenCL reports 48; bench/probes/big_local.c): deep rings of 128 x 256
# tiles as cuBLAS keeps them, for f16, TF32 (packed and register-fed) and tf32x3, beside the
# current defaults and CLBlast, one clgemm process per size and data type; cuBLAS in the same
# command.  Sampled checks (large sizes) verify every row.
#   usage (repo root, .gpu carried): bash bench/gpu_bigsmem_explore.sh
#   BS_SIZES (default 4096 8192); BS_F16, BS_TF32, BS_X3: the variants, one per line.
LOG=session.log
source bench/gpu_common.sh
F16=${BS_F16:-"wgmma_tma:BM=128,BN=256,BK=64,STAGES=4,THREADS=288
wgmma_tma:BM=128,BN=256,BK=64,STAGES=3,THREADS=288
wgmma_tma:BM=128,BN=256,BK=32,STAGES=8,THREADS=288
wgmma_tma:BM=128,BN=256,BK=64,STAGES=4,THREADS=288,INFLIGHT=0
wgmma_tma:BM=64,BN=256,BK=64,STAGES=2
wgmma_tma:BM=64,BN=256,BK=32,STAGES=5
wgmma_tma:BM=64,BN=256,BK=16,STAGES=10
wgmma_tma:BM=128,BN=128,WGN=128,BK=64,STAGES=6,THREADS=288
wgmma_tma:BM=128,BN=128,WGN=128,BK=64,STAGES=3,THREADS=288"}
TF32=${BS_TF32:-"wgmma_tma_packed:BM=128,BN=256,WGN=256,BK=32,STAGES=4
wgmma_tma_packed:BM=128,BN=256,WGN=256,BK=16,STAGES=8
wgmma_tma_packed:BK=32,STAGES=6
wgmma_tma_packed:BK=32,STAGES=3
wgmma_tma_packed:BM=64,BN=256,WGN=256,THREADS=160,BK=32,STAGES=2
wgmma_tma:BK=32,STAGES=6
wgmma_tma:BK=16,STAGES=10"}
X3=${BS_X3:-"wgmma_tma_tf32x3:BK=32,STAGES=4
wgmma_tma_tf32x3:BK=16,STAGES=8
wgmma_tma_tf32x3:BM=128,BN=128,THREADS=288,BK=16,STAGES=5"}
for n in ${BS_SIZES:-4096 8192}; do
    echo "== f16 at $n"
    args=(--algo tensor_core)
    for v in $F16; do args+=(--algo "$v"); done
    timeout 200 $c --device nvidia --size $n --dtype f16 "${args[@]}" --format json --quiet \
        > "$out/f16_$n.json" 2>> "$out/err.txt"
    python3 bench/json_table.py "$out/f16_$n.json"
    echo "== TF32 and tf32x3 at $n"
    args=(--algo tensor_core --algo wgmma_tma --algo tensor_core_tf32x3)
    for v in $TF32 $X3; do args+=(--algo "$v"); done
    timeout 250 $c --device nvidia --size $n "${args[@]}" --format json --quiet \
        > "$out/f32_$n.json" 2>> "$out/err.txt"
    python3 bench/json_table.py "$out/f32_$n.json"
done
tail -5 "$out/err.txt"
echo "== cuBLAS (PyTorch) in the same command"
for m in --f16 --tf32 ""; do timeout 120 python3 bench/cublas_anchor.py $m ${BS_SIZES:-4096 8192}; done \
    2>&1 | grep -v Warning | tee "$out/cublas.txt"
