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
