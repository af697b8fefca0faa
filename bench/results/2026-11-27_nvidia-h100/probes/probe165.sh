#!/usr/bin/env bash
# Probe 165: step 10 with SETMAXNREG=1 (the working tree): the producer a warpgroup that
# hands registers to the two consumers (setmaxnreg 40 / 232, .maxnreg 168 at entry), against
# the same forms without, at 4096^3 and 4096x28672x4096: TF32 N T (both operands pre-passed,
# A truncated, A rounded in registers, and swapped with the weight in registers), bf16 and
# f16 defaults; two rounds; build logs (spills, serialised wgmmas).
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe165.txt
run() { local tag=$1; shift
  timeout 250 build-gpu/clgemm --device nvidia --no-baseline --format json -q "$@" 2>>$OUT/probe165.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" || echo "$tag $*: no JSON"; }
W=wgmma_tma
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for a in "4096 $W:SETMAXNREG=1" "4096 $W:PACKA=3,SETMAXNREG=1" "4096 $W:PACKA=3" "4096 $W:SWAP=1,PACKA=3,SETMAXNREG=1"; do
  set -- $a; echo "== build log $2"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 100 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size $1 --iters 3 --algo $2 2>&1 | grep -iE "C75|gemm_wgmma_tma|spill|registers" | head -6
done
for a in "4096 bf16 $W:SETMAXNREG=1"; do
  set -- $a; echo "== build log $3 ($2)"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 100 build-gpu/clgemm --device nvidia --no-baseline --dtype $2 --size $1 --iters 3 --algo $3 2>&1 | grep -iE "C75|gemm_wgmma_tma|spill|registers" | head -6
done
for round in r1 r2; do
  run "$round tf32 4096 NT" --iters 30 --trans NT --size 4096 --algo tensor_core --algo $W:SETMAXNREG=1 --algo $W:PACKA=0 --algo $W:PACKA=0,SETMAXNREG=1 --algo $W:PACKA=3,SETMAXNREG=1 --algo $W:SWAP=1,PACKA=3,SETMAXNREG=1
  run "$round tf32 4096x28672x4096 NT" --iters 10 --trans NT --size 4096x28672x4096 --algo tensor_core --algo $W:SETMAXNREG=1 --algo $W:SWAP=1,PACKA=3,SETMAXNREG=1
  run "$round bf16 4096 NT" --iters 50 --dtype bf16 --trans NT --size 4096 --algo tensor_core --algo $W:SETMAXNREG=1
  run "$round bf16 8192" --iters 20 --dtype bf16 --size 8192 --algo tensor_core --algo $W:SETMAXNREG=1
  run "$round f16 4096" --iters 50 --dtype f16 --size 4096 --algo tensor_core --algo $W:SETMAXNREG=1
done
python3 bench/cublas.py tf32:4096:NT tf32:4096x28672x4096:NT bf16:4096:NT bf16:8192 f16:4096 2>&1 | grep cublas
} > $P 2>&1
tail -3 $P
