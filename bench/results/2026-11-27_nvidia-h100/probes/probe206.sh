#!/usr/bin/env bash
# Probe 206 (after bench/device_session.sh built build-gpu from the working tree; .gpu/head.tar.gz
# = git archive ea75392): the pre-passes with more loads in flight per work-item.  TF32 N T
# copies B through wgmma_tma_round_a (one float4 per work-item before), N N transposes it
# through wgmma_tma_pack_bt (four per work-item) and ran faster; the tight 16-bit copy
# (layout_pack2) moved one vector per work-item.  Old and new interleaved, twice; the GEMM
# alone (CLGEMM_TIME_LAST_KERNEL_ONLY) once; cuBLAS beside.
source .gpu/setup.sh
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old
(cd /tmp/old && meson setup build --buildtype=release > /tmp/old.log 2>&1 && meson compile -C build >> /tmp/old.log 2>&1) || { tail -5 /tmp/old.log; }
P=$OUT/probe206.txt
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:40], r["status"], r.get("ms_median"), r.get("ms_min"), "|", (r.get("note") or r.get("message") or "")[:90], flush=True)' "$1" || echo "$1: no JSON"; }
run() { # label binary args...
  local label=$1 b=$2; shift 2
  $b --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe206.err | show "$label $*"
}
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
  for v in new old; do
    b=build-gpu/clgemm; [ $v = old ] && b=/tmp/old/build/clgemm
    run "$v r$rep" $b --iters 40 --trans NT --size 4096 --algo tensor_core --algo tensor_core_tf32x3
    run "$v r$rep" $b --iters 40 --trans NN --size 4096 --algo tensor_core
    run "$v r$rep" $b --iters 20 --trans NT --size 4096x4096x14336 --algo tensor_core
    run "$v r$rep" $b --iters 40 --trans NT --size 4096x6144x4096 --algo tensor_core
    run "$v r$rep" $b --iters 40 --size 4095 --ld-pad 0 --algo tensor_core
    run "$v r$rep" $b --iters 40 --size 4095 --ld-pad 0 --dtype bf16 --algo tensor_core
    run "$v r$rep" $b --iters 100 --size 1000x3000x777 --ld-pad 0 --dtype bf16 --algo tensor_core
    run "$v r$rep" $b --iters 100 --size 1000x3000x777 --ld-pad 0 --dtype f16 --algo tensor_core
    run "$v r$rep" $b --iters 100 --size 1000x3000x777 --ld-pad 0 --algo tensor_core
  done
done
run "aligned" build-gpu/clgemm --iters 40 --size 4095 --algo tensor_core
run "aligned" build-gpu/clgemm --iters 40 --size 4095 --dtype bf16 --algo tensor_core
run "aligned" build-gpu/clgemm --iters 100 --size 1000x3000x777 --dtype bf16 --algo tensor_core
run "aligned" build-gpu/clgemm --iters 100 --size 1000x3000x777 --algo tensor_core
export CLGEMM_TIME_LAST_KERNEL_ONLY=1
run "kernel-only" build-gpu/clgemm --iters 40 --trans NT --size 4096 --algo tensor_core
run "kernel-only" build-gpu/clgemm --iters 40 --trans NN --size 4096 --algo tensor_core
run "kernel-only" build-gpu/clgemm --iters 20 --trans NT --size 4096x4096x14336 --algo tensor_core
run "kernel-only" build-gpu/clgemm --iters 40 --size 4095 --ld-pad 0 --dtype bf16 --algo tensor_core
unset CLGEMM_TIME_LAST_KERNEL_ONLY
python3 bench/cublas.py tf32:4096x4096x4096:NT tf32:4096x4096x4096:NN tf32:4096x4096x14336:NT tf32:4096x6144x4096:NT bf16:4095x4095x4095 2>&1 | grep "cublas:"
} > $P 2>&1
tail -3 $P
