#!/usr/bin/env bash
# One device-tool command for the matrix-unit steps (issues 3 and 5): the primitives and
# kernels checked on the GPU, registers, then 4096^3 and 8192^3 per data type in one clgemm
# process each (CLBlast beside them), and cuBLAS through PyTorch in the same command.
#   usage (repo root, .gpu carried): bash bench/gpu_matrix_session.sh
# Extra variants: TF32_VARIANTS, F16_VARIANTS (newline-separated algo strings) in the env.
set -uo pipefail
out=${OUT:-bench-out}
mkdir -p "$out"
exec > >(tee -a "$out/session.log") 2>&1
source .gpu/setup.sh
echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
meson setup /tmp/b --buildtype=release >/dev/null && meson compile -C /tmp/b >/dev/null ||
    { echo "build failed"; exit 1; }
clgemm=/tmp/b/clgemm
t() { timeout "$@"; }

echo "== fragment layouts on the real instructions (mma.sync m16n8k8 tf32, m16n8k16 f16/bf16)"
CLGEMM_TEST_DEVICE=nvidia t 120 /tmp/b/tests/test_fragments cl 2>&1 | tail -12
echo "== correctness on the GPU (awkward sizes, tight ld + offsets, NaN padding)"
CLGEMM_TEST_DEVICE=nvidia t 300 /tmp/b/tests/test_correctness tensor_core tensor_core_tf32x3 wgmma \
    2>&1 | grep -E "^FAIL|cases" | tail -12

tf32="tensor_core
tensor_core_tf32x3
tensor_core_tf32x3:WM=64,WN=32,TM=16,TN=4
tensor_core_tf32x3:PROMOTE=0
wgmma
wgmma:BM=128,TM=16,BN=128,WGN=128,TN=4,BK=8,STAGES=5
${TF32_VARIANTS:-}"
f16="tensor_core
tensor_core:BM=128,BN=128,BK=32,WM=64,WN=64,TM=32,TN=4
tensor_core:BM=128,BN=128,BK=16,WM=64,WN=64,TM=32,TN=4
tensor_core:BM=128,BN=256,BK=16,WM=64,WN=64,TM=16,TN=8
tensor_core:BM=128,BN=128,BK=32,WM=64,WN=32,TM=16,TN=4
tensor_core:BM=64,BN=128,BK=32,WM=32,WN=64,TM=8,TN=8
${F16_VARIANTS:-}"

echo "== registers and spills (-cl-nv-verbose; the last build of each is the one that runs)"
regs() {
    CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose \
        t 60 $clgemm --device nvidia --no-baseline --size 256 --algo "$1" ${2:-} --iters 1 \
        --warmup 0 --quiet --format csv 2>&1 |
        grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill (stores|loads)" | tail -3 | tr '\n' ' '
}
for v in $tf32; do echo "tf32 $v: $(regs $v)"; done
for v in $f16; do echo "f16  $v: $(regs $v '--dtype f16')"; done

table() {
    python3 -c '
import json, sys
for res in json.load(open(sys.argv[1]))["results"]:
    for r in res["rows"]:
        g = r["gflops"] or 0
        e = r["error"] if r["error"] is not None else -1
        v = r["vs_clblast"] if r.get("vs_clblast") else 0
        print("%5d %-5s %-58s %9.0f GFLOP/s %5.2fx  err %.2e  %-7s %s" % (res["M"],
              res.get("dtype", "f32"), r["algorithm"], g, v, e, r["precision"] or "", r["status"]))
' "$1"
}
for n in 4096 8192; do
    args=(--algo warp_tiled)
    for v in $tf32; do args+=(--algo "$v"); done
    t 240 $clgemm --device nvidia --size $n "${args[@]}" --format json --quiet > "$out/tf32_$n.json"
    table "$out/tf32_$n.json"
    for dt in f16 bf16; do
        args=()
        for v in $f16; do args+=(--algo "$v"); done
        t 240 $clgemm --device nvidia --size $n --dtype $dt "${args[@]}" --format json --quiet \
            > "$out/${dt}_$n.json"
        table "$out/${dt}_$n.json"
    done
done

echo "== cuBLAS through PyTorch, same GPU, same command"
for m in "" --tf32 --f16 --bf16; do
    t 120 python3 bench/cublas_anchor.py $m 4096 8192 2>&1 | tail -2
done | tee "$out/cublas.txt"
