#!/usr/bin/env bash
# Step 10 (cl/10_wgmma_tma.cl: TMA copies, mbarriers, a producer warp) on an H100, in one
# device-tool command: the TMA primitive against its layouts (tests/test_tma.c), the kernel's
# correctness cases on the GPU, registers, then 16-bit variants at 4096^3 and 8192^3 next to
# step 9's default, each in its own process.
#   usage (repo root, .gpu carried): bash bench/gpu_tma_probe.sh
# Output: the terminal and $OUT (or ./bench-out): tma_probe.log and per-variant JSON.
LOG=tma_probe.log
source bench/gpu_common.sh
echo "== 1. the TMA primitive (host-encoded and device-set addresses, four swizzles, edges)"
CLGEMM_TEST_DEVICE=nvidia timeout 120 /tmp/b/tests/test_tma 2>&1 | tail -12
echo "== 2. correctness of wgmma_tma on the GPU (60 cases, odd sizes, offsets)"
CLGEMM_TEST_DEVICE=nvidia timeout 300 /tmp/b/tests/test_correctness wgmma_tma 2>&1 | grep -v "^ok" | tail -12
echo "== 3. registers (sm_90a build)"
V=${TMA_VARIANTS:-"wgmma_tma
wgmma_tma:STAGES=5
wgmma_tma:BK=32,STAGES=2
wgmma_tma:BM=64,BN=256,WGN=256,BK=16,STAGES=4,THREADS=160
wgmma_tma:BM=64,BN=128,WGN=128,BK=32,STAGES=3,THREADS=160
wgmma_tma:BM=128,BN=256,WGN=256,BK=16,STAGES=3
wgmma_tma:BM=128,BN=192,WGN=64,BK=16,STAGES=4
wgmma_tma:BM=64,BN=64,WGN=64,BK=64,STAGES=2,THREADS=160"}
for v in $V; do
    echo "$v: $(CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 \
        timeout 60 $c --device nvidia --algo "$v" --dtype f16 --no-baseline --size 256 --iters 1 \
        --warmup 0 2>&1 | grep -A2 "sm_90a rebuild" | grep -oE "Used [0-9]+ registers.*smem|spill[^,]*" | head -2 | tr '\n' ' ')"
done
echo "== 4. 16-bit speed, one process per variant (GFLOP/s)"
for n in 4096 8192; do
    for dt in f16 bf16; do
        [ $dt = bf16 ] && [ -z "${TMA_BF16:-}" ] && continue
        for v in wgmma $V; do
            timeout 120 $c --device nvidia --size $n --dtype $dt --no-baseline --algo "$v" \
                --format json --quiet > "$out/tmp.json" 2> "$out/err.txt"
            python3 - "$out/tmp.json" "$n" "$dt" "$v" "$out/err.txt" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1])); r = d["results"][0]["rows"][0]
    print(f'{sys.argv[2]:>5} {sys.argv[3]:<5} {sys.argv[4]:<62} {r.get("gflops", 0):>10.0f} {r.get("status")} err {r.get("error")} {r.get("note", "")}')
except Exception as ex:
    print(sys.argv[2], sys.argv[3], sys.argv[4], "FAILED", ex, open(sys.argv[5]).read()[-300:])
PY
            cat "$out/tmp.json" >> "$out/all.jsonl"; echo >> "$out/all.jsonl"
        done
    done
done
if [ -n "${TMA_MAXREG:-}" ]; then
    echo "== 5. default with -cl-nv-maxrregcount=$TMA_MAXREG (three groups per SM?)"
    CLGEMM_BUILD_OPTIONS="-cl-nv-maxrregcount=$TMA_MAXREG" timeout 120 $c --device nvidia \
        --size 4096 --dtype f16 --no-baseline --algo wgmma_tma --quiet 2>&1 | tail -2
fi
rm -f "$out/tmp.json"
