#!/usr/bin/env bash
# Quick sweep of wgmma_tma tile shapes on the GPU (no tests): one process per data type and
# size with the variants in $SWEEP_F16 / $SWEEP_F32 (one per line), then the 16-bit default
# built with -cl-nv-maxrregcount=$SWEEP_MAXREG if set.
#   usage (repo root, .gpu carried): bash bench/gpu_tma_sweep.sh
LOG=sweep.log
source bench/gpu_common.sh
show() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"][0]
for r in d["rows"]:
    print(f'{d["N"]:>5} {d["dtype"]:<5} {r["algorithm"]:<66} {r.get("gflops") or 0:>10.0f} {r["status"]} {r.get("error")}')
PY
}
for n in ${SWEEP_SIZES:-4096 8192}; do
    for dt in f16 f32; do
        list=$([ $dt = f16 ] && echo "${SWEEP_F16:-}" || echo "${SWEEP_F32:-}")
        [ -z "$list" ] && continue
        args=()
        for v in $list; do args+=(--algo "$v"); done
        timeout ${SWEEP_TIMEOUT:-150} $c --device nvidia --size $n --dtype $dt "${args[@]}" \
            --no-baseline --format json --quiet > "$out/sweep_${dt}_$n.json" 2>/dev/null
        show "$out/sweep_${dt}_$n.json"
    done
done
if [ -n "${SWEEP_MAXREG:-}" ]; then
    for v in ${SWEEP_F16:-wgmma_tma}; do
        echo "$v with -cl-nv-maxrregcount=$SWEEP_MAXREG:"
        CLGEMM_BUILD_OPTIONS="-cl-nv-maxrregcount=$SWEEP_MAXREG -cl-nv-verbose" CLGEMM_SHOW_BUILD_LOG=1 \
            timeout 60 $c --device nvidia --size 4096 --dtype f16 --algo "$v" --no-baseline \
            --quiet 2>&1 | grep -E "registers|spill|GFLOP|wgmma_tma" | tail -4
    done
fi
