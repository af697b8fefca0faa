#!/usr/bin/env bash
# Probe 21. (a) Where GELU's cost at 4096^3 goes: the sigmoid form (GELU_FORM, a probe-only
# define: 0 exp and '/', 1 exp and native_recip, 2 native_exp and native_recip, 3 no math),
# staged against direct stores. (b) TF32 at M = 128: 64 x 64 tiles (128 blocks) rounding in
# local memory or in registers, against the rule; and the same tiles with nothing to round
# in the kernel (X pre-rounded, timed without the pre-pass).
source .gpu/setup.sh
C=build-gpu/clgemm
P=$OUT/probe21.txt
run() { local tag=$1 tr=$2 sz=$3 dt=$4 ep=$5; shift 5; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 $C --device nvidia --size $sz --trans $tr --dtype $dt --epilogue $ep --no-baseline --iters 30 --format json "${a[@]}" 2>>$OUT/probe21.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("params"), flush=True)' $tag $tr $sz $dt $ep; }
{
w=wgmma_tma
run plain NN 4096 bf16 none tensor_core $w:STAGED=0
for F in 0 1 2 3; do
  CLGEMM_BUILD_OPTIONS=-DGELU_FORM=$F run form$F NN 4096 bf16 bias_gelu tensor_core $w:STAGED=1
done
run plain NN 4096 f32 none tensor_core
for F in 0 2; do
  CLGEMM_BUILD_OPTIONS=-DGELU_FORM=$F run form$F NN 4096 f32 bias_gelu tensor_core $w:STAGED=1
done
T=BM=64,BN=64,WGN=64,STAGES=12
for sz in 128x4096x4096 128x4096x14336; do
  run tf32 NT $sz f32 none tensor_core $w:$T,PACKA=2,PACKB=2 $w:$T,PACKA=2,PACKB=2,SWAP=1 \
     $w:$T,PACKA=2,PACKB=2,INFLIGHT=2 $w:$T,PACKA=3,PACKB=2 $w:$T,PACKA=3,PACKB=2,SWAP=1 \
     $w:$T,PACKA=3,PACKB=2,SPLITK=2
  CLGEMM_TIME_LAST_KERNEL_ONLY=1 run kernel-only NT $sz f32 none $w:$T,PACKA=0,PACKB=1 $w:$T,PACKA=0,PACKB=1,SWAP=1
done
mkdir -p $OUT/ptx
CLGEMM_NO_CACHE=1 CLGEMM_DUMP_PTX=$OUT/ptx timeout 100 $C --device nvidia --size 256 --dtype bf16 --epilogue bias_gelu --no-baseline --iters 1 --algo $w >/dev/null 2>&1
ls $OUT/ptx; for f in $OUT/ptx/*; do echo "$f: div.rn $(grep -c 'div.rn' $f) div.full $(grep -c 'div.full' $f) div.approx $(grep -c 'div.approx' $f) rcp $(grep -c 'rcp' $f) ex2 $(grep -c 'ex2' $f) call $(grep -c 'call' $f)"; done
} > $P 2>&1
cat $P
