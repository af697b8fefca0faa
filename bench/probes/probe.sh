# A device probe's common part, sourced by a probe script run through the `device` tool (its
# working tree, with .gpu/ carried: ../shared/device/README.md):
#
#   #!/usr/bin/env bash
#   # Probe N (H100): what it measures and why.
#   source bench/probes/probe.sh probeN        # OpenCL set up, build-gpu/ built, $P named
#   {
#   probe_header
#   for r in 1 2 3; do probe_run "r$r rule" --size 4096 --algo tensor_core; done
#   } > $P 2>&1
#   cat $P
#
# probe_run TAG CLGEMM-ARGS...  one clgemm run on the GPU (no CLBlast row), one line per row:
#   TAG status ms_median ms_min GB/s error note-or-params; its stderr goes to $OUT/NAME.err.
#   PROBE_OPTIONS (kernel defines, e.g. -DSTAGED=1), PROBE_TIMEOUT (seconds, default 60) and
#   PROBE_DEVICE (default nvidia; pocl tries a probe on a CPU) apply to the runs after them.
# probe_header                  the GPU, its driver and clock, the commit (.gpu/commit), the date.
# probe_build_old PATCH         this tree with PATCH (a diff of this commit against its
#                               parent, under .gpu/) reversed, its clgemm built in /tmp/old
#                               (log: $OUT/build-old.log), so that a change and the tree
#                               before it run interleaved in one command;
# probe_run2 TAG CLGEMM-ARGS... probe_run as "TAG new", then the same on that build, "TAG old".
# Builds go to build-gpu/ (its log $OUT/build.log); kernels to a cache of the probe's own, so
# that variants built with PROBE_OPTIONS are built once and rounds interleave cheaply.
PROBE_NAME=${1:?usage: source bench/probes/probe.sh NAME}
source .gpu/setup.sh
P=$OUT/$PROBE_NAME.txt
export CLGEMM_CACHE_DIR=/tmp/cache_$PROBE_NAME
rm -rf build-gpu
if ! { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } \
        > "$OUT/build.log" 2>&1; then
    tail -30 "$OUT/build.log"
    exit 1
fi

probe_show() {
    python3 -c '
import json, sys
for res in json.load(sys.stdin)["results"]:
    for r in res["rows"]:
        print(sys.argv[1], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"),
              r.get("error"), (r.get("note") or r.get("params") or "")[:110], flush=True)' "$1" ||
        echo "$1: no JSON"
}

probe_run() {
    local tag=$1
    shift
    CLGEMM_BUILD_OPTIONS="${PROBE_OPTIONS:-}" timeout "${PROBE_TIMEOUT:-60}" build-gpu/clgemm \
        --device "${PROBE_DEVICE:-nvidia}" --no-baseline --format json -q "$@" 2>>"$OUT/$PROBE_NAME.err" |
        probe_show "$tag"
}

probe_header() {
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader ||
        echo "(no nvidia-smi)"
    cat .gpu/commit
    date -u
}

probe_build_old() {
    local patch=$1
    rm -rf /tmp/old && mkdir /tmp/old &&
        tar --exclude=./build --exclude=./build-gpu --exclude=./.gpu -cf - . | tar -C /tmp/old -xf -
    if ! (cd /tmp/old && patch -s -R -p1 < "$OLDPWD/$patch" &&
          meson setup b --buildtype=release && meson compile -C b clgemm:executable) \
            > "$OUT/build-old.log" 2>&1; then
        tail "$OUT/build-old.log"
        exit 1
    fi
}

probe_run2() {
    local tag=$1
    shift
    probe_run "$tag new" "$@"
    CLGEMM_BUILD_OPTIONS="${PROBE_OPTIONS:-}" timeout "${PROBE_TIMEOUT:-60}" /tmp/old/b/clgemm \
        --device "${PROBE_DEVICE:-nvidia}" --no-baseline --format json -q "$@" \
        2>>"$OUT/$PROBE_NAME.err" | probe_show "$tag old"
}
