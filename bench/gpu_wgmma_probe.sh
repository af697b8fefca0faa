#!/usr/bin/env bash
# First contact of step 9 (wgmma, cl/09_wgmma.cl) with an H100, in one device-tool command.
# Each stage says what it shows; later stages still run when an earlier one fails.
#   usage (repo root, .gpu carried, after the build):
#     source .gpu/setup.sh && meson setup /tmp/b && ninja -C /tmp/b && bash bench/gpu_wgmma_probe.sh
#   optional: bash bench/gpu_wgmma_probe.sh BUILD_DIR [quick]
# Output: the terminal, plus $OUT (or ./bench-out): wgmma_probe.log, the PTX of the post-pass
# (ptx/*.sm90.ptx as NVIDIA made it, ptx/*.sm90a.ptx as rebuilt) and CSV/JSON rows.
set -uo pipefail
b=${1:-/tmp/b}
quick=${2:-}
out=${OUT:-bench-out}
mkdir -p "$out/ptx"
exec > >(tee -a "$out/wgmma_probe.log") 2>&1
clgemm=$b/clgemm
[ -x "$clgemm" ] || { echo "no $clgemm: build first (see the usage line)"; exit 1; }
# A fresh program cache: the first wgmma build must go through both builds of the post-pass.
export CLGEMM_CACHE_DIR=$(mktemp -d /tmp/wgmma-cache.XXXX)
t() { timeout "$@"; }   # every stage is bounded, so one hang cannot eat the session
# The variants of stages 2 and 6 (the registry default first): -D parameters of cl/09_wgmma.cl.
#   64x256, BK 8, 4 stages, one wgmma left in flight (the default) / none in flight
#   64x256, BK 16, 2 stages (fewer barriers, no prefetch beyond the next slice)
#   64x128, BK 16, 3 stages (~127 registers: 4 groups per SM) / BK 8, 6 stages (~96: 5 groups)
#   128x128 (two warpgroups), BK 8, 5 stages / 128x256, BK 8, 3 stages (1 group per SM)
#   64x192 as three m64n64k8 per k step, 5 stages / the default without rounding to tf32
#   (ROUND=0: the tensor core truncates; shows what the rounding pass costs, and its error)
VARIANTS="BM=64,BN=256,BK=8,WGN=256,STAGES=4,WAIT=1,TM=8,TN=16
WAIT=0
BK=16,STAGES=2,WAIT=0
BN=128,WGN=128,TN=8,BK=16,STAGES=3
BN=128,WGN=128,TN=8,BK=8,STAGES=6
BM=128,TM=16,BN=128,WGN=128,TN=4,BK=8,STAGES=5
BM=128,TM=16,BN=256,TN=8,BK=8,STAGES=3
BN=192,WGN=64,TN=12,STAGES=5
ROUND=0"

echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null)"
$clgemm --list-devices | grep -i -E "nvidia|sm_" || echo "(no NVIDIA OpenCL device listed)"

echo
echo "== 1. the primitive alone: real wgmma against a plain reference (tests/test_wgmma.c)"
echo "   N = 8..256, four local-memory layouts, two k8 steps, integer data: must be exact."
echo "   All fail: the post-pass or the instruction's set-up; only some layouts: the descriptor"
echo "   reading (LBO/SBO, alignment); everything wrong by rows or columns: the D fragment."
CLGEMM_TEST_DEVICE=nvidia CLGEMM_DUMP_PTX="$out/ptx" CLGEMM_SHOW_BUILD_LOG=1 \
    t 300 "$b/tests/test_wgmma" 2>&1 | grep -v "^clgemm: wrote" | tail -80
echo "   (exit status ${PIPESTATUS[0]})"

echo
echo "== 2. the kernel's two builds: logs (registers, spills, ptxas warnings such as"
echo "   'wgmma.mma_async instructions are serialized'), PTX kept in $out/ptx"
CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_DUMP_PTX="$out/ptx" \
    CLGEMM_NO_CACHE=1 t 120 $clgemm --device nvidia --algo wgmma --no-baseline --size 256 \
    --iters 1 --warmup 0 2>&1 | grep -v "^ *$" | tail -40
ls -la "$out/ptx" | tail -6
grep -c "wgmma.mma_async" "$out"/ptx/*.sm90a.ptx 2>/dev/null | head -4
echo "-- registers of the sm_90a build per variant (groups per SM: 65536 / (regs x work-items),"
echo "   and 228 KiB / (local + 1 KiB); 128 work-items: <= 168 regs for 3, <= 128 for 4)"
for v in $VARIANTS; do
    echo "$v: $(CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 \
        t 60 $clgemm --device nvidia --algo "wgmma:$v" --no-baseline --size 256 --iters 1 \
        --warmup 0 2>&1 | sed -n '/of the sm_90a rebuild/,$p' | grep -E "registers|spill|serializ" \
        | tr -s ' \n' ' ' | sed -e 's/ptxas info *: //g' -e 's/ptxas *\. *//g')"
done

echo
echo "== 3. correctness at every awkward size on the GPU (1 .. 1000x17x513, offsets, NaN padding)"
CLGEMM_TEST_DEVICE=nvidia t 300 "$b/tests/test_correctness" wgmma 2>&1 | tail -24

echo
echo "== 4. wgmma beside tensor_core (step 8), warp_tiled (step 7) and CLBlast, verified"
sizes="256 1000 4096 8192"
[ -n "$quick" ] && sizes="256 4096"
for n in $sizes; do
    t 300 $clgemm --device nvidia --size $n --algo wgmma --algo tensor_core --algo warp_tiled \
        --format json --quiet > "$out/wgmma_$n.json"
    echo "-- $n (exit $?)"
    python3 - "$out/wgmma_$n.json" <<'PY'
import json, sys
for res in json.load(open(sys.argv[1]))['results']:
    for r in res['rows']:
        def f(key, fmt):
            return fmt % r[key] if r.get(key) is not None else '-'
        print('  %-12s %9s GFLOP/s %7s vs CLBlast  err %8s  %-11s %s' % (
            r['algorithm'], f('gflops', '%.0f'), f('vs_clblast', '%.2fx'), f('error', '%.1e'),
            r['status'], r.get('note') or r['params']))
PY
done

echo
echo "== 5. program cache: the second run loads the final (sm_90a) binary, no build at all"
export CLGEMM_CACHE_DIR=$(mktemp -d /tmp/wgmma-cache.XXXX)
for pass in first second; do
    t 120 $clgemm --device nvidia --algo wgmma --no-baseline --size 512 --iters 1 --warmup 0 \
        --format csv --quiet | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print("'$pass'", r["algorithm"], r["status"], "build_ms", r["build_ms"], "from_cache", r["from_cache"])'
done

echo
echo "== 6. variants (cp.async pipeline, cl/09_wgmma.cl): one process per size, verified, beside"
echo "   tensor_core (step 8); then the two first with ptxas capped at 168 registers (3 groups/SM)"
algos=(--algo tensor_core)
for v in $VARIANTS; do algos+=(--algo "wgmma:$v"); done
for n in 4096 8192 1000; do
    echo "-- $n"
    t 150 $clgemm --device nvidia --size $n --no-baseline --quiet --iters 20 --warmup 3 \
        "${algos[@]}" 2>&1 | grep -E "^(wgmma|tensor_core)|FAIL|unsupported" | sed "s/^/$n  /"
done
for n in 4096 8192; do
    CLGEMM_BUILD_OPTIONS=-cl-nv-maxrregcount=168 t 100 $clgemm --device nvidia --size $n \
        --no-baseline --quiet --iters 20 --warmup 3 --algo wgmma --algo "wgmma:WAIT=0" 2>&1 |
        grep -E "^wgmma|FAIL|unsupported" | sed "s/^/$n maxrreg168  /"
done

echo
echo "== 7. the descriptor's LBO/SBO reading, checked from the other side: with the two fields"
echo "   swapped the result must be wrong (FAIL expected).  If this one passes and 3 fails,"
echo "   the reading in cl/wgmma.h is backwards."
CLGEMM_BUILD_OPTIONS=-DWGMMA_SWAP_LBO_SBO=1 t 120 $clgemm --device nvidia --algo wgmma \
    --no-baseline --size 256 --iters 1 --quiet 2>&1 | grep -E "^wgmma|FAIL"

echo
echo "== done: $(date -u +%FT%TZ)"
rm -rf /tmp/wgmma-cache.*
