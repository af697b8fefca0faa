#!/usr/bin/env bash
# One device-tool command for issue-4 style measurements: build, run the tests with
# correctness on the GPU, time kernel builds vs the program cache, tune the tunable kernels,
# then sweep sizes x algorithms (with the fresh tuning, CLBlast and cuBLAS) and the PoCL CPU.
#   usage (repo root, .gpu carried): bash bench/gpu_tune_sweep.sh [TUNE_SECONDS]
set -uo pipefail
out=${OUT:-bench-out}
mkdir -p "$out"
exec > >(tee -a "$out/session.log") 2>&1
source .gpu/setup.sh
echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
meson setup /tmp/b --buildtype=release >/dev/null && meson compile -C /tmp/b >/dev/null ||
    { echo "build failed"; exit 1; }
clgemm=/tmp/b/clgemm
$clgemm --list-devices

echo "== tests (correctness and threads on the GPU, the rest on PoCL)"
CLGEMM_TEST_DEVICE=nvidia meson test -C /tmp/b --suite unit --suite correctness --suite library --suite cli 2>&1 | grep -E "^ *[0-9]+/|Ok:|Fail:"
grep -E "^FAIL|cases,|checks,|failed$" /tmp/b/meson-logs/testlog.txt | head -30

if [ -n "${DEBUG_ABORT:-}" ]; then
    echo "== backtrace of the bad-input abort seen on this machine"
    timeout 60 cuda-gdb -batch -ex run -ex bt --args $clgemm --device pocl --size 8388609x32x32 \
        2>&1 | tail -25
fi

echo "== kernel build time: compiled vs from the program cache"
for dev in nvidia pocl; do
    for pass in compile cache; do
        CLGEMM_CACHE_DIR=/tmp/cc-$dev $clgemm --device $dev --no-baseline --size 256 --iters 1 \
            --warmup 0 --format csv --quiet | cut -d, -f1,7,18,19 | sed "s/^/$pass,/"
    done
done | tee "$out/cache_timing.csv"

echo "== tuning"
# TUNE_QUICK=--quick searches the pruned space; empty searches the whole one.
python3 tools/tune.py --clgemm $clgemm --device nvidia \
    --sizes "${TUNE_SIZES:-4096,1024,2048,512}" ${TUNE_QUICK---quick} \
    --time-limit "${1:-300}" --out "$out/tuning.json"

echo "== sweep (tuned)"
CLGEMM_TUNING_FILE=$out/tuning.json python3 bench/sweep.py --clgemm $clgemm --devices nvidia \
    --algos all,auto --out "$out/sweep"
echo "== PoCL CPU 1024 (untuned here)"
$clgemm --device pocl --size 1024 --algo all --algo auto --quiet --format json > "$out/pocl_1024.json"
python3 bench/json_table.py "$out/pocl_1024.json"
