#!/usr/bin/env bash
# The real (non-emulated) path of cl/09_wgmma.cl, cl/09_wgmma_f16.cl and cl/wgmma.h, assembled without a GPU:
# clang compiles the kernel to PTX for NVPTX (OpenCL C, markers as comments), the PTX is made to
# look like NVIDIA's OpenCL output (.target sm_90, .version 9.0 as driver 580 writes it), ptxas accepts it for sm_90
# (the first build), tests/ptx_retarget_tool rewrites it, and ptxas must accept the result
# for sm_90a with real wgmma in it (the second build), with no spills and no serialised wgmma.
# This checks the asm syntax, the operand substitution into the markers and the post-pass; it
# is not NVIDIA's OpenCL compiler, whose PTX differs in detail.
#   usage: test_wgmma_ptxas.sh SOURCE_ROOT RETARGET_TOOL   (exit 77 = skipped)
set -uo pipefail
root=$1 tool=$2
clang=$(command -v clang-15 || true)
ptxas=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null || true)
[ -n "$clang" ] && [ -n "$ptxas" ] || { echo "SKIP: needs clang-15 and ptxas"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The OpenCL built-ins clang's nvcl target lacks (NVIDIA's compiler has its own).
cat > "$tmp/prelude.h" <<'PRE'
#define get_local_id(d) ((d) == 0 ? __nvvm_read_ptx_sreg_tid_x() : __nvvm_read_ptx_sreg_tid_y())
#define get_group_id(d) ((d) == 0 ? __nvvm_read_ptx_sreg_ctaid_x() : __nvvm_read_ptx_sreg_ctaid_y())
#define get_num_groups(d) ((d) == 0 ? __nvvm_read_ptx_sreg_nctaid_x() : __nvvm_read_ptx_sreg_nctaid_y())
#define barrier(f) __syncthreads()
PRE
expand() {  # the host's #include "x.h" expansion, for one file of cl/
    python3 - "$root/cl" "$1" <<'PY'
import re, sys
def expand(name):
    out = []
    for line in open(sys.argv[1] + '/' + name):
        m = re.match(r'\s*#include "([^"]+)"', line)
        out.append(expand(m.group(1)) + '\n' if m else line)
    return ''.join(out)
sys.stdout.write(expand(sys.argv[2]))
PY
}
fail=0
# The registry's default (64 x 256, BK 8, 4 stages), and the variants bench/gpu_wgmma_probe.sh
# compares: a 64 x 128 and a 128-row (two warpgroups) tile, 16-wide K slices, no wgmma left in
# flight, no rounding, three wgmma per k step, the narrowest wgmma.
for params in "" "-DWAIT=0" "-DBK=16 -DSTAGES=2 -DWAIT=0" \
        "-DBN=128 -DWGN=128 -DTN=8 -DBK=16 -DSTAGES=3" "-DBN=128 -DWGN=128 -DTN=8 -DBK=8 -DSTAGES=6" \
        "-DBM=128 -DTM=16 -DBN=128 -DWGN=128 -DTN=4 -DBK=8 -DSTAGES=5" \
        "-DBM=128 -DTM=16 -DBN=256 -DTN=8 -DSTAGES=3" "-DROUND=0" "-DBN=192 -DWGN=64 -DTN=12 -DSTAGES=5" \
        "-DBN=128 -DWGN=16 -DTN=8 -DBK=16 -DSTAGES=3" \
        "f16:-DBF16=0" "f16:-DBF16=1" "f16:-DBF16=0 -DWAIT=0 -DSTAGES=3" \
        "f16:-DBF16=0 -DBM=128 -DTM=16 -DBN=128 -DWGN=128 -DTN=4 -DBK=16 -DSTAGES=4" \
        "f16:-DBF16=1 -DBN=128 -DWGN=128 -DTN=8 -DBK=32 -DSTAGES=3" \
        "f16:-DBF16=0 -DBM=128 -DTM=16 -DBN=256 -DTN=8 -DBK=16 -DSTAGES=3" \
        "f16:-DBF16=0 -DBN=192 -DWGN=64 -DTN=12 -DSTAGES=4" "f16:-DBF16=0 -DBK=32 -DSTAGES=2 -DWAIT=0" \
        "f16:-DBF16=0 -DBN=128 -DWGN=128 -DTN=8 -DBK=16 -DSTAGES=6" \
        "f16:-DBF16=0 -DSWZ=32 -DBM=128 -DTM=16 -DBN=128 -DWGN=128 -DTN=4 -DBK=16 -DSTAGES=4" \
        "f16:-DBF16=1 -DSWZ=64 -DBN=128 -DWGN=128 -DTN=8 -DBK=32 -DSTAGES=3 -DWAIT=0" \
        "f16:-DBF16=0 -DSWZ=64 -DBM=128 -DTM=16 -DBN=128 -DWGN=128 -DTN=4 -DBK=32 -DSTAGES=2 -DWAIT=0" \
        "f16:-DBF16=0 -DSWZ=128 -DBN=64 -DWGN=64 -DTN=4 -DBK=64 -DSTAGES=2 -DWAIT=0" \
        "-DSWZ=32" "-DSWZ=64 -DBN=128 -DWGN=128 -DTN=8 -DBK=16 -DSTAGES=3" \
        "-DSWZ=64 -DBM=128 -DTM=16 -DBN=128 -DWGN=128 -DTN=4 -DBK=16 -DSTAGES=2 -DWAIT=0" \
        "-DSWZ=128 -DBN=64 -DWGN=64 -DTN=4 -DBK=32 -DSTAGES=2 -DWAIT=0" \
        "tma:-DBF16=0" "tma:-DBF16=1 -DBK=32 -DSTAGES=2" "tma:-DBF16=0 -DBK=64 -DBM=64 -DBN=64 -DWGN=64 -DSTAGES=2" \
        "tma:-DBF16=0 -DBM=64 -DBN=256 -DWGN=256 -DBK=16 -DSTAGES=4" \
        "tma32:" "tma32:-DBM=128 -DBN=128 -DBK=16 -DSTAGES=2" "tma32:-DBM=64 -DBK=32 -DSTAGES=2" \
        "tma32:-DSPLIT=1 -DBK=8 -DSTAGES=4" "tma32:-DSPLIT=1 -DBM=64 -DBN=128 -DBK=8 -DSTAGES=5" \
        "tma32:-DSPLIT=1 -DBK=16 -DSTAGES=2" "tma32:-DSPLIT=1 -DPROMOTE=0 -DBK=8 -DSTAGES=4" \
        "tma32:-DSPLIT=1 -DBK=8 -DSTAGES=4 -DSPLITTER=0 -DTHREADS=160" "tma32:-DBM=128 -DBN=128 -DBK=8 -DSTAGES=3 -DROUNDA=1 -DINFLIGHT=0" \
        "tma32:-DBM=128 -DBN=128 -DBK=8 -DSTAGES=5 -DINFLIGHT=2" "tma:-DBF16=1 -DINFLIGHT=0" \
        "tma:-DTF32=1 -DBK=8" "tma:-DTF32=1 -DBK=16 -DSTAGES=2" \
        "tma:-DTF32=1 -DBM=128 -DBN=128 -DWGN=128 -DBK=8 -DSTAGES=5 -DTHREADS=288" \
        "tma:-DTF32=1 -DBM=128 -DBN=256 -DBK=8 -DSTAGES=3 -DTHREADS=288" \
        "tma:-DTF32=1 -DBN=64 -DWGN=64 -DBK=32 -DSTAGES=2" \
        "tma:-DTF32=1 -DSPLIT=1 -DBN=64 -DWGN=64 -DBK=16 -DSTAGES=2" \
        "tma:-DTF32=1 -DSPLIT=1 -DBM=128 -DBN=64 -DWGN=64 -DBK=8 -DSTAGES=2 -DTHREADS=288 -DINFLIGHT=0"; do
    # (No shapes beyond 48 KiB of local memory here: the CUDA toolkit's ptxas refuses more than
    # 0xc000 bytes of static shared memory, where the driver's own compiler takes 227 KiB.)
    # "f16:" entries are cl/09_wgmma_f16.cl (m64nNk16 on 16-bit operands), the others 09_wgmma.cl.
    file=09_wgmma.cl
    # "tma:" entries are cl/10_wgmma_tma.cl (TMA copies, mbarriers, producer warp).
    case $params in f16:*) file=09_wgmma_f16.cl params=${params#f16:} ;;
                    tma:*) file=10_wgmma_tma.cl params=${params#tma:} ;;
                    tma32:*) file=10_wgmma_tma_tf32.cl params=${params#tma32:} ;; esac
    { cat "$tmp/prelude.h"; expand $file; } > "$tmp/k.cl"
    # "inline" as static inline: clang may keep a plain C99 inline function out of line,
    # without a definition to link.  asm: clang's OpenCL mode spells it __asm__.
    if ! "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -march=sm_80 -O3 -S \
            -Xclang -finclude-default-header -DCLGEMM_PTX_SM90A=1 -Dasm=__asm__ \
            "-Dinline=static inline" $params -o "$tmp/k.ptx" "$tmp/k.cl" 2> "$tmp/err"; then
        echo "FAIL [$params] clang:"; head -20 "$tmp/err"; fail=1; continue
    fi
    sed -e 's/^\.version .*/.version 9.0/' -e 's/^\.target sm_80/.target sm_90/' "$tmp/k.ptx" \
        > "$tmp/sm90.ptx"
    "$ptxas" -arch=sm_90 "$tmp/sm90.ptx" -o /dev/null 2> "$tmp/err" ||
        { echo "FAIL [$params] first build (sm_90):"; head "$tmp/err"; fail=1; continue; }
    "$tool" "$tmp/sm90.ptx" > "$tmp/sm90a.ptx" 2> "$tmp/err" ||
        { echo "FAIL [$params] post-pass:"; cat "$tmp/err"; fail=1; continue; }
    grep -q "^[[:space:]]*wgmma.mma_async.sync.aligned.m64n" "$tmp/sm90a.ptx" ||
        { echo "FAIL [$params] no wgmma instruction after the post-pass"; fail=1; continue; }
    if [ $file = 10_wgmma_tma.cl ] && [[ $params == *-DTF32=1* ]]; then   # packed TF32: both K-major
        grep -qE "^[[:space:]]*wgmma.mma_async.sync.aligned.m64n[0-9]+k8.f32.tf32.tf32 .*, p, 1, 1;" \
            "$tmp/sm90a.ptx" ||
            { echo "FAIL [$params] no m64nNk8.f32.tf32.tf32"; fail=1; continue; }
    elif [ $file = 09_wgmma_f16.cl ] || [ $file = 10_wgmma_tma.cl ]; then   # the 16-bit form, its type, B read N-major
        case $params in *-DBF16=1*) ty=bf16 ;; *) ty=f16 ;; esac
        grep -qE "^[[:space:]]*wgmma.mma_async.sync.aligned.m64n[0-9]+k16.f32.$ty.$ty .*, p, 1, 1, 0, 1;" \
            "$tmp/sm90a.ptx" ||
            { echo "FAIL [$params] no m64nNk16.f32.$ty.$ty with B transposed"; fail=1; continue; }
    fi
    case $params in   # swizzled: the arena 1024-byte aligned (the descriptors' base offset is 0)
    *-DSWZ=*) grep -qE "^[[:space:]]*\.shared \.align 1024 " "$tmp/sm90a.ptx" ||
        { echo "FAIL [$params] local arena not .align 1024"; grep "\.shared \.align" "$tmp/sm90a.ptx"; fail=1; continue; } ;;
    esac
    if ! "$ptxas" -arch=sm_90a -v "$tmp/sm90a.ptx" -o /dev/null > "$tmp/log" 2>&1; then
        echo "FAIL [$params] second build (sm_90a):"; head -20 "$tmp/log"; fail=1; continue
    fi
    info=$(grep -E "registers|spill" "$tmp/log" | tr -s ' \n' ' ')
    if grep -qiE "serializ|warning" "$tmp/log" || ! grep -q " 0 bytes spill stores" "$tmp/log"; then
        echo "FAIL [$params] $info"; grep -iE "serializ|warning" "$tmp/log"; fail=1; continue
    fi
    echo "ok   $file [${params:-defaults}] $info"
done
exit $fail
