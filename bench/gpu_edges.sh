#!/usr/bin/env bash
# One device-tool command for issue 4's odd sizes: tune warp_tiled at every odd size and at
# its nearest aligned size, then time both (tuned, CLBlast, cuBLAS) in one process per size,
# plus one tile configuration with M, N or K alone odd (the edge paths' own cost), for this
# kernel and for the kernel directories in OLD_CL_DIR (space-separated) to compare.
#   usage (repo root, .gpu carried): bash bench/gpu_edges.sh [TUNE_SECONDS]
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

pairs="1000:1024 3000:3072 4095:4096 1000x3000x777:1024x3072x768"
sizes=$(echo $pairs | tr ' :' ',,')

echo "== tuning warp_tiled at $sizes"
python3 tools/tune.py --clgemm $clgemm --device nvidia --algos warp_tiled --sizes "$sizes" \
    --time-limit "${1:-330}" --out "$out/tuning.json"

echo "== tuned, one process per size (median of runs, CLBlast in the same process)"
for s in ${sizes//,/ }; do
    CLGEMM_TUNING_FILE=$out/tuning.json $clgemm --device nvidia --size $s --algo warp_tiled \
        --algo block_tiled_vectorized --format json --quiet > "$out/edges_$s.json"
done
python3 - "$out" $pairs <<'PY'
import json, sys
out = sys.argv[1]
def best(s):
    rows = json.load(open('%s/edges_%s.json' % (out, s)))['results'][0]['rows']
    ours = max((r for r in rows if r['algorithm'] != 'clblast' and r['status'] == 'ok'),
               key=lambda r: r['gflops'])
    cb = next((r['gflops'] for r in rows if r['algorithm'] == 'clblast'), 0)
    return ours, cb
print('%-16s %-16s %10s %10s %7s %9s %9s' % ('odd', 'aligned', 'odd GF/s', 'aligned', 'ratio',
                                             'odd/CLB', 'al/CLB'))
for p in sys.argv[2:]:
    odd, al = p.split(':')
    (o, oc), (a, ac) = best(odd), best(al)
    print('%-16s %-16s %10.0f %10.0f %6.1f%% %8.2fx %8.2fx  %s | %s' % (
        odd, al, o['gflops'], a['gflops'], 100 * o['gflops'] / a['gflops'],
        o['gflops'] / oc if oc else 0, a['gflops'] / ac if ac else 0,
        o.get('params', ''), a.get('params', '')))
PY

echo "== one tile configuration at both sizes, M, N or K alone odd (edge-path cost)"
bash bench/gpu_edge_probe.sh $clgemm cl ${OLD_CL_DIR:-}

echo "== PoCL max alloc (the too-large check that did not refuse here last time)"
clinfo 2>/dev/null | grep -E "Device Name|Max memory allocation" | head -8
$clgemm --device pocl --size 8396801x32x32 --no-baseline --iters 1 --warmup 0 --quiet \
    --format csv 2>&1 | tail -2; echo "rc=$?"
