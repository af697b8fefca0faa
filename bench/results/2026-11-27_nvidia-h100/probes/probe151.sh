#!/usr/bin/env bash
# Probe 151 (the working tree against HEAD 228a7ae).  (A) GELU on bare ex2/rcp .ftz and a
# Horner argument: 4096^3 plain and fused, fp32 and 16-bit C, bf16, f16, TF32 and fp32
# auto, three interleaved rounds; the GELU's SASS (MUFU and all instructions) old and new;
# its accuracy over every float.  (B) fp32 N T / T N batches: step 7 forms that thick
# slices (BK = 32, now allowed past 48 KiB) and the register cap open, CLBlast beside.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .gpu/head.tar.gz -C /tmp/old && (cd /tmp/old && meson setup build --buildtype=release > /tmp/bo.log 2>&1 && meson compile -C build >> /tmp/bo.log 2>&1) || { tail -20 /tmp/bo.log; exit 1; }
P=$OUT/probe151.txt
run() { local tag=$1 exe=$2; shift 2
  timeout 200 $exe --device nvidia --iters 40 --format json -q "$@" 2>>$OUT/probe151.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(sys.argv[1], *sys.argv[2:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' "$tag" "$*" || echo "$tag $*: no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
echo "== A: GELU"
for round in r1 r2 r3; do
  for b in new old; do
    exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
    export CLGEMM_CACHE_DIR=/tmp/c$b
    for e in none gelu bias_gelu; do run "$round $b" $exe --no-baseline --size 4096 --dtype bf16 --epilogue $e --algo wgmma_tma; done
    for e in none bias_gelu; do run "$round $b" $exe --no-baseline --size 4096 --dtype bf16 --out bf16 --epilogue $e --algo wgmma_tma; done
    for e in none bias_gelu; do run "$round $b" $exe --no-baseline --size 4096 --dtype f16 --epilogue $e --algo wgmma_tma; done
    for e in none bias_gelu; do run "$round $b" $exe --no-baseline --size 4096 --epilogue $e --algo tensor_core --algo auto; done
  done
done
unset CLGEMM_CACHE_DIR
gcc -O2 -o /tmp/gelu_accuracy bench/probes/gelu_accuracy.c $(pkg-config --cflags --libs OpenCL) -lm
echo "new: $(/tmp/gelu_accuracy cl)"
echo "HEAD: $(/tmp/gelu_accuracy /tmp/old/cl)"
TB=$(python3 -c "import triton,os;print(os.path.dirname(triton.__file__))")/backends/nvidia/bin
ls $TB
for b in new old; do
  exe=build-gpu/clgemm; [ $b = old ] && exe=/tmp/old/build/clgemm
  rm -rf /tmp/ptx$b && mkdir -p /tmp/ptx$b && CLGEMM_NO_CACHE=1 CLGEMM_DUMP_PTX=/tmp/ptx$b $exe --device nvidia --no-baseline --size 256 --dtype bf16 --epilogue bias_gelu --algo wgmma_tma -q > /dev/null 2>&1
  for f in /tmp/ptx$b/*.sm90a.ptx; do
    $TB/ptxas -arch=sm_90a -v -o /tmp/k$b.cubin $f 2>&1 | grep -E "registers|spill" | head -2
    $TB/cuobjdump -sass /tmp/k$b.cubin > /tmp/sass$b.txt 2>&1 || $TB/nvdisasm /tmp/k$b.cubin > /tmp/sass$b.txt 2>&1
    echo "$b: $(grep -c MUFU /tmp/sass$b.txt) MUFU, $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' /tmp/sass$b.txt) instructions"
    grep -oE "MUFU\.[A-Z0-9.]+" /tmp/sass$b.txt | sort | uniq -c
    cp /tmp/sass$b.txt $OUT/sass_bias_gelu_$b.txt
  done
done
echo "== B: fp32 N T / T N batches"
W=warp_tiled:READT=1,CLAMP=1,WM=64,WN=32
for round in r1 r2; do
  for tr in NT TN; do
    for sz in "128x128x64 512" "512x512x64 64"; do set -- $sz
      run $round build-gpu/clgemm --trans $tr --size $1 --batch $2 --algo auto \
        --algo $W,BK=32,PREFETCH=0 --algo $W,BK=32,PREFETCH=0,MAXNREG=128 --algo $W,BK=32,PREFETCH=1,MAXNREG=128 \
        --algo $W,BK=16,PREFETCH=0 --algo $W,BK=8,PREFETCH=1,MAXNREG=128 --algo $W,BK=16,PREFETCH=1,MAXNREG=128,APAD=0 \
        --algo warp_tiled:READT=1,CLAMP=1,BK=32,PREFETCH=0 --algo warp_tiled:READT=1,CLAMP=1,WM=32,WN=64,BK=32,PREFETCH=0
    done
  done
  run $round build-gpu/clgemm --trans NN --size 128x128x64 --batch 512 --algo auto --algo $W,BK=32,PREFETCH=0 --algo warp_tiled:BK=32,PREFETCH=0
done
} > $P 2>&1
tail -3 $P
