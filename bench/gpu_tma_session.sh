#!/usr/bin/env bash
# Step 10 measured: wgmma_tma variants next to step 9's wgmma and CLBlast (fp32 on the same
# rounded data) in one clgemm process per size and data type, cuBLAS (PyTorch) in the same
# command.  Also the TMA primitive test and the correctness cases on the GPU first.
#   usage (repo root, .gpu carried): bash bench/gpu_tma_session.sh
#   TMA_DTYPES="f32" (default "f16 bf16"): the data types; f32 runs TF32 kernels, with
#   cuBLAS TF32 as the anchor.  TMA_VARIANTS: the wgmma_tma variants, one per line.
# Output: the terminal and $OUT (or ./bench-out): session.log, {f16,bf16}_{4096,8192}.json,
# cublas.txt.
LOG=session.log
source bench/gpu_common.sh
echo "== the TMA primitive"
for only in host device; do
    CLGEMM_TMA_TEST_ONLY=$only CLGEMM_TEST_DEVICE=nvidia timeout 120 stdbuf -oL -eL \
        /tmp/b/tests/test_tma 2>&1 | head -40
done
echo "== correctness on the GPU: wgmma_tma (emulation-free), and tensor_core's 16-bit cases"
CLGEMM_TEST_DEVICE=nvidia timeout ${TMA_TEST_TIMEOUT:-400} /tmp/b/tests/test_correctness wgmma_tma tensor_core 2>&1 \
    | grep -v "^ok" | tail -8
# Besides tensor_core (which runs wgmma_tma's defaults on sm_90), wgmma and wgmma_tma: the
# default's neighbours (band height, slots) and two consumers on wider tiles.
V=${TMA_VARIANTS:-"wgmma_tma:GM=8
wgmma_tma:GM=32
wgmma_tma:STAGES=3
wgmma_tma:GM=1
wgmma_tma:BM=128,BN=192,WGN=64,BK=16,STAGES=4,THREADS=288
wgmma_tma:BM=128,BN=256,WGN=256,BK=16,STAGES=3,THREADS=288"}
dts=${TMA_DTYPES:-f16 bf16}; first=${dts%% *}
echo "== registers ($first)"
for v in $V; do
    echo "$v: $(CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 \
        timeout 60 $c --device nvidia --algo "$v" --no-baseline --size 256 --iters 1 \
        --warmup 0 --dtype "$first" 2>&1 | grep -E "registers|spill" | tail -3 | tr -s ' \n' ' ')"
done
echo "== speed: one process per size and type, all variants + CLBlast"
for n in 4096 8192; do
    for dt in ${TMA_DTYPES:-f16 bf16}; do
        args=(--algo tensor_core --algo wgmma --algo wgmma_tma)
        for v in $V; do args+=(--algo "$v"); done
        timeout ${TMA_TIMEOUT:-280} $c --device nvidia --size $n --dtype $dt "${args[@]}" --format json --quiet \
            > "$out/${dt}_$n.json" 2> "$out/err_${dt}_$n.txt"
        python3 - "$out/${dt}_$n.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))["results"][0]
    for r in d["rows"]:
        print(f'{d["N"]:>5} {d["dtype"]:<5} {r["algorithm"]:<62} {r.get("gflops") or 0:>10.0f} '
              f'{r.get("vs_clblast") or 0:>6.2f}x {r["status"]} {r.get("error")} {r.get("backend", "")}')
except Exception as ex:
    print(sys.argv[1], "FAILED", ex)
PY
    done
done
echo "== cuBLAS (PyTorch) in the same command"
modes=""
for dt in ${TMA_DTYPES:-f16 bf16}; do modes="$modes --${dt/f32/tf32}"; done
for m in $modes; do timeout 120 python3 bench/cublas_anchor.py $m 4096 8192; done 2>&1 \
    | grep -v Warning | tee "$out/cublas.txt"
