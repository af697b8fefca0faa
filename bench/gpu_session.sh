#!/usr/bin/env bash
# One device-tool command: set up OpenCL + CLBlast on the GPU machine, build, run the tests
# on the GPU, and measure the progression against CLBlast (and cuBLAS through PyTorch as an
# outside anchor).  Everything lands in $OUT (or ./bench-out when run elsewhere).
#   usage (from the repo root, .gpu carried): bash bench/gpu_session.sh [quick]
set -uo pipefail
out=${OUT:-bench-out}
mkdir -p "$out"
log="$out/session.log"
exec > >(tee -a "$log") 2>&1

source .gpu/setup.sh
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
echo "== $(date -u +%FT%TZ) $gpu"
meson setup /tmp/b --buildtype=release >/dev/null && meson compile -C /tmp/b >/dev/null || {
    echo "build failed"; exit 1; }
clgemm=/tmp/b/clgemm
$clgemm --list-devices

echo "== registers and spills (NVIDIA -cl-nv-verbose)"
CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 \
    $clgemm --device nvidia --size 256 --iters 1 --quiet 2>&1 >/dev/null |
    grep -E "build log|registers|spill|lmem|smem" || true

echo "== tests on the GPU (correctness on NVIDIA, the rest on PoCL)"
CLGEMM_TEST_DEVICE=nvidia meson test -C /tmp/b 2>&1 | tail -6
cp /tmp/b/meson-logs/testlog.txt "$out/gpu_testlog.txt"
grep -E "^FAIL|cases,|checks,|Traceback|Error" /tmp/b/meson-logs/testlog.txt | head -40 || true

for n in 4096 1024 2048 4095 1000x3000x777; do
    echo "== --size $n on the GPU"
    $clgemm --device nvidia --size $n --format json --quiet > "$out/nvidia_$n.json"
    python3 bench/json_table.py "$out/nvidia_$n.json"
done
[ "${1:-}" = quick ] && exit 0

echo "== --device all --size 1024"
$clgemm --device all --size 1024 --quiet | tee "$out/all_devices_1024.txt"

echo "== cuBLAS through PyTorch (outside anchor)"
python3 bench/cublas_anchor.py 4096 1024 2>&1 | tee "$out/cublas.txt"
