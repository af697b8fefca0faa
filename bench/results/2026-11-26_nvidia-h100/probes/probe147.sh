#!/usr/bin/env bash
# Probe 147: (A) GELU through native_exp2 / native_recip (the working tree) against HEAD
# (exp and an IEEE division) at 4096^3: bf16 and f16 with an fp32 C, bf16 C, TF32 and fp32
# auto, plain and bias_gelu, three interleaved rounds, every run verified; which PTX each
# build's GELU became.  (B) fp32 N T batches with step 7's pipeline (BK 16: 159 registers)
# held to 128 by `.maxnreg 128` (or .maxntid 256 + .minnctapersm 2) patched into the cached
# PTX (2026-11-25's probes/patch_cache.py; run as .gpu/patch_cache.py), against the rule and N N.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe147.txt
run() { local tag=$1 exe=$2; shift 2
  timeout 200 $exe --device nvidia --no-baseline --iters $ITERS --format json -q "$@" 2>>$OUT/probe147.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
echo "== A: GELU"
export ITERS=40
for round in r1 r2 r3; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    export CLGEMM_CACHE_DIR=/tmp/c$b
    for e in none bias_gelu; do
      run "$round $b" $exe --size 4096 --dtype bf16 --epilogue $e --algo wgmma_tma
      run "$round $b" $exe --size 4096 --dtype bf16 --out bf16 --epilogue $e --algo wgmma_tma
      run "$round $b" $exe --size 4096 --dtype f16 --epilogue $e --algo wgmma_tma
      run "$round $b" $exe --size 4096 --epilogue $e --algo tensor_core
      [ $round = r3 ] || run "$round $b" $exe --size 4096 --epilogue $e --algo auto
    done
  done
done
for b in new old; do
  echo "$b PTX: ex2.approx $(cat /tmp/c$b/* | grep -a -c 'ex2.approx') rcp.approx $(cat /tmp/c$b/* | grep -a -c 'rcp.approx') div.rn.f32 $(cat /tmp/c$b/* | grep -a -c 'div.rn.f32') div.full $(cat /tmp/c$b/* | grep -a -c 'div.full') lg2 $(cat /tmp/c$b/* | grep -a -c 'lg2.approx')"
done
echo "== B: N T batches, .maxnreg"
W=warp_tiled:READT=1
CASES=("128x128x64 NT 512 auto $W,PREFETCH=1,BK=16,WM=64,WN=32 $W,PREFETCH=1,BK=16 $W,PREFETCH=1,BK=8,WM=64,WN=32 $W,PREFETCH=1,BK=16,WM=64,WN=32,CLAMP=1"
       "512x512x64 NT 64 auto $W,PREFETCH=1,BK=16,WM=64,WN=32 $W,PREFETCH=1,BK=16 $W,PREFETCH=1,BK=8,WM=64,WN=32 $W,PREFETCH=1,BK=16,WM=64,WN=32,CLAMP=1"
       "128x128x64 NN 512 auto" "512x512x64 NN 64 auto"
       "128x4096x4096 NT 1 auto $W,SPLITK=4,PREFETCH=1,BK=16 $W,SPLITK=4,PREFETCH=1,BK=16,WM=64,WN=32")
runb() { local label=$1 sz=$2 tr=$3 b=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --batch $b --iters $ITERS --format json -q "${a[@]}" 2>>$OUT/probe147.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), flush=True)' $label $sz $tr b$b || echo "$sz $tr : no JSON"; }
export CLGEMM_CACHE_DIR=/tmp/cw ITERS=1
for c in "${CASES[@]}"; do runb warm $c > /dev/null; done
ls /tmp/cw | wc -l
python3 bench/results/2026-11-25_nvidia-h100/probes/patch_cache.py /tmp/cw /tmp/cm128 ".maxnreg 128"
python3 bench/results/2026-11-25_nvidia-h100/probes/patch_cache.py /tmp/cw /tmp/cl2 ".maxntid 256, 1, 1;.minnctapersm 2"
TD=$(python3 -c "import triton, os; print(os.path.dirname(triton.__file__))")/backends/nvidia/bin
for d in cw cm128 cl2; do
  for f in /tmp/$d/*; do
    python3 - "$f" > /tmp/x.ptx <<'PY'
import sys, struct
b = open(sys.argv[1], 'rb').read(); k = struct.unpack('<Q', b[8:16])[0]
key = b[16:16 + k].decode(errors='replace')
p = b[16 + k + 16:].rstrip(b'\0').decode(errors='replace')
sys.stderr.write(key[:300] + '\n')
sys.stdout.write(p.replace('.version 9.0', '.version 8.7'))
PY
    grep -q ".entry gemm_warp_tiled(" /tmp/x.ptx && echo "$d $(basename $f): $($TD/ptxas -arch=sm_90 -v -o /tmp/x.cubin /tmp/x.ptx 2>&1 | grep -E 'Used|spill' | tr '\n' ' ')"
  done
done 2>$OUT/keys.txt
export ITERS=50
for round in 1 2; do
  for d in cw cm128 cl2; do
    export CLGEMM_CACHE_DIR=/tmp/$d
    for c in "${CASES[@]}"; do runb "$round $d" $c; done
  done
done
} > $P 2>&1
tail -5 $P
