#!/usr/bin/env bash
# One device-tool command: build, tests with correctness on the GPU (tensor cores through
# real mma.sync), kernel build vs program-cache times, and the tensor-core rows at 4096^3 and
# 8192^3 beside warp_tiled, CLBlast and cuBLAS (fp32 and TF32).
#   usage (repo root, .gpu carried): bash bench/gpu_final.sh
set -uo pipefail
out=${OUT:-bench-out}
mkdir -p "$out"
exec > >(tee -a "$out/session.log") 2>&1
source .gpu/setup.sh
echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
meson setup /tmp/b --buildtype=release >/dev/null && meson compile -C /tmp/b >/dev/null ||
    { echo "build failed"; exit 1; }
clgemm=/tmp/b/clgemm

echo "== tests (correctness and threads on the GPU, the rest on PoCL)"
CLGEMM_TEST_DEVICE=nvidia meson test -C /tmp/b --suite unit --suite correctness --suite library \
    --suite cli 2>&1 | grep -E "^ *[0-9]+/|Ok:|Fail:"
grep -E "^FAIL|cases,|checks,|failed$" /tmp/b/meson-logs/testlog.txt | head -30

echo "== registers and spills of the tensor-core kernels"
CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 $clgemm \
    --device nvidia --algo tensor_core --algo tensor_core_tf32x3 --no-baseline --size 256 \
    --iters 1 --quiet 2>&1 >/dev/null | grep -E "registers|spill" || true

echo "== kernel build time: compiled vs from the program cache (ms)"
for dev in nvidia pocl; do
    for pass in compile cache; do
        CLGEMM_CACHE_DIR=/tmp/cc-$dev $clgemm --device $dev --no-baseline --size 256 --iters 1 \
            --warmup 0 --format csv --quiet | cut -d, -f1,7,18,19 | sed "s/^/$pass,/"
    done
done | tee "$out/cache_timing.csv"

for n in 4096 8192; do
    echo "== tensor cores at $n"
    $clgemm --device nvidia --size $n --algo tensor_core --algo tensor_core_tf32x3 \
        --algo warp_tiled --algo auto --format json --quiet > "$out/tensor_$n.json"
    python3 bench/json_table.py "$out/tensor_$n.json"
done
python3 bench/cublas_anchor.py 4096 8192 | tee "$out/cublas.txt"
python3 bench/cublas_anchor.py --tf32 4096 8192 | tee -a "$out/cublas.txt"
