# Sourced by the bench/gpu_*.sh session scripts on the GPU machine (repo root, .gpu carried):
# output folder and log, the Debian OpenCL/CLBlast set-up of .gpu/, a release build in /tmp/b,
# a fresh program cache (every build in the session is a real one), and a header line naming
# the GPU and driver.  Before sourcing, set LOG to the log's file name.  Leaves $out (the
# output folder: $OUT, or ./bench-out) and $c (the clgemm binary).
set -uo pipefail
out=${OUT:-bench-out}
mkdir -p "$out"
exec > >(tee -a "$out/${LOG:-session.log}") 2>&1
source .gpu/setup.sh >/dev/null 2>&1
meson setup /tmp/b --buildtype=release >/dev/null 2>&1 || { echo "meson setup failed"; exit 1; }
ninja -C /tmp/b >/dev/null 2>&1 || { echo "build failed"; ninja -C /tmp/b 2>&1 | tail -20; exit 1; }
c=/tmp/b/clgemm
export CLGEMM_CACHE_DIR=$(mktemp -d /tmp/clgemm-cache.XXXX)
echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
# registers VARIANT [clgemm options...]: the ptxas lines of one fresh build of VARIANT
# (registers, spills, serialisation warnings) on one line.  Our program cache and the driver's
# own compile cache (CUDA_CACHE_DISABLE) are both off, or a warm machine prints nothing.
registers() {
    local v=$1
    shift
    CUDA_CACHE_DISABLE=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 \
        CLGEMM_NO_CACHE=1 timeout 60 "$c" --device nvidia --algo "$v" "$@" --no-baseline \
        --size 256 --iters 1 --warmup 0 2>&1 | grep -E "registers|spill|serializ" \
        | grep -v "used 0 barriers" | sed -e 's/ptxas info *: //g' | tr -s ' \n' ' '
}
