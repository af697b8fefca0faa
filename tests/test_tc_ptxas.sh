#!/usr/bin/env bash
# The real (non-emulated) NVIDIA paths of cl/08_mma.cl and cl/mma/mma_sync.h (and below, step 7's
# 16-bit C and step 11's one-launch split), assembled without a GPU:
# clang compiles the kernel to PTX for NVPTX, the PTX is made to look like NVIDIA's OpenCL
# output (.version 8.0, .target sm_80 / sm_90), and ptxas must accept it, with no spills for
# TF32, f16 and bf16 (tf32x3, SPLIT=1, spills a little in clang's PTX with or without ldmatrix).
# This checks the inline PTX (mma.sync m16n8k8 and m16n8k16, ldmatrix) and its operands, and
# prints the register count ptxas gives clang's PTX (NVIDIA's OpenCL compiler emits different
# PTX; its count differs).
#   usage: test_tc_ptxas.sh SOURCE_ROOT   (exit 77 = skipped)
set -uo pipefail
root=$1
. "$root/tests/ptxas_common.sh"  # clang, ptxas, $tmp with prelude.h, expand()
{ cat "$tmp/prelude.h"; expand 08_mma.cl; } > "$tmp/k.cl"
fail=0
# nvcl IN OUT PARAMS...: the kernel to PTX for sm_80, with the define the host adds on sm_80+.
# "inline" as static inline: clang may keep a plain C99 inline function out of line, without
# a definition to link.  asm: clang's OpenCL mode spells it __asm__.
nvcl() {
    local in=$1 out=$2; shift 2
    "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -march=sm_80 -O3 -S \
        -Xclang -finclude-default-header -Dasm=__asm__ "-Dinline=static inline" \
        -DCLGEMM_NV_SM80=1 "$@" -o "$out" "$in" 2> "$tmp/err"
}
# cvt_of PARAMS: the pair conversion a 16-bit C of that build must store through (none for fp32)
cvt_of() {
    case $1 in
        *GEMM_CTYPE=1*) echo cvt.rn.f16x2.f32 ;;
        *GEMM_CTYPE=2*) echo cvt.rn.bf16x2.f32 ;;
    esac
}
# fp32 data (DTYPE=0): the registry's tile (64 x 32 warp tiles), the 64 x 64 one, both with
# and without ldmatrix, tf32x3, and a warp tile with an odd number of n-tiles (ldmatrix .x2);
# 16-bit data (DTYPE=1 f16, 2 bf16): the registry's tile (64 x 64 warp tiles, BK 32), the
# file's defaults (the same) and a small tile with two loads of A per work-item.
for params in "-DDTYPE=0 -DWM=64 -DWN=32 -DTM=16 -DTN=4" "-DDTYPE=0 -DWM=64 -DWN=32 -DTM=16 -DTN=4 -DLDMATRIX=1" \
        "-DDTYPE=0 -DWM=64 -DWN=64 -DTM=32 -DTN=4" "-DDTYPE=0 -DWM=64 -DWN=64 -DTM=32 -DTN=4 -DLDMATRIX=1" \
        "-DDTYPE=0 -DWM=64 -DWN=32 -DTM=16 -DTN=4 -DSPLIT=1" "-DDTYPE=0 -DWM=64 -DWN=32 -DTM=16 -DTN=4 -DSPLIT=1 -DLDMATRIX=1" \
        "-DDTYPE=0 -DBM=64 -DBN=32 -DBK=32 -DWM=32 -DWN=8 -DTM=8 -DTN=1 -DLDMATRIX=1" \
        "-DDTYPE=1 -DBK=32 -DWM=64 -DWN=64 -DTM=32 -DTN=4" "-DDTYPE=2 -DBK=32 -DWM=64 -DWN=64 -DTM=32 -DTN=4" \
        "-DDTYPE=1" "-DDTYPE=2 -DBM=32 -DBN=32 -DBK=64 -DWM=16 -DWN=16 -DTM=8 -DTN=1" \
        "-DDTYPE=2 -DBK=32 -DWM=64 -DWN=64 -DTM=32 -DTN=4 -DGEMM_CTYPE=2 -DGEMM_EPILOGUE=5" \
        "-DDTYPE=0 -DWM=64 -DWN=32 -DTM=16 -DTN=4 -DGEMM_CTYPE=1 -DGEMM_EPILOGUE=3 -DGEMM_BIAS_ROWS=1"; do
    if ! nvcl "$tmp/k.cl" "$tmp/k.ptx" -DGEMM_BATCHED=1 $params; then
        echo "FAIL [$params] clang:"; head -20 "$tmp/err"; fail=1; continue
    fi
    case $params in
        *LDMATRIX=1*) grep -q "ldmatrix.sync.aligned.m8n8.x4.shared.b16" "$tmp/k.ptx" ||
            { echo "FAIL [$params] no ldmatrix in the PTX"; fail=1; continue; } ;;
    esac
    case $params in
        *DTYPE=0*) mma=m16n8k8.row.col.f32.tf32 ;;
        *DTYPE=1*) mma=m16n8k16.row.col.f32.f16 ;;
        *) mma=m16n8k16.row.col.f32.bf16 ;;
    esac
    grep -q "mma.sync.aligned.$mma" "$tmp/k.ptx" ||
        { echo "FAIL [$params] no mma.sync.aligned.$mma in the PTX"; fail=1; continue; }
    # a 16-bit C: rounded by PTX's pair conversion (the host defines CLGEMM_NV_SM80 on sm_80+)
    cvt=$(cvt_of "$params")
    [ -z "$cvt" ] || grep -q "$cvt" "$tmp/k.ptx" ||
        { echo "FAIL [$params] no $cvt in the PTX"; fail=1; continue; }
    # the problem of a strided batch, from dimension 2 of the grid (GEMM_BATCH_ENTRY, in the
    # batched build: -DGEMM_BATCHED=1 above)
    grep -q "%ctaid.z" "$tmp/k.ptx" ||
        { echo "FAIL [$params] no %ctaid.z (batch entry) in the PTX"; fail=1; continue; }
    for sm in 80 90; do
        sed -e 's/^\.version .*/.version 8.0/' -e "s/^\\.target sm_80/.target sm_$sm/" \
            "$tmp/k.ptx" > "$tmp/k$sm.ptx"
        if ! "$ptxas" -arch=sm_$sm -v "$tmp/k$sm.ptx" -o /dev/null > "$tmp/log" 2>&1; then
            echo "FAIL [$params] sm_$sm:"; head -20 "$tmp/log"; fail=1; continue
        fi
        info=$(grep -E "registers|spill" "$tmp/log" | tr -s ' \n' ' ')
        spills=0
        case $params in *SPLIT=1*) ;; *) grep -q " 0 bytes spill stores" "$tmp/log" || spills=1 ;; esac
        if grep -qi "warning" "$tmp/log" || [ $spills = 1 ]; then
            echo "FAIL [$params] sm_$sm $info"; grep -i warning "$tmp/log"; fail=1; continue
        fi
        echo "ok   [$params] sm_$sm $info"
    done
done
# sm80_check SOURCE NAME WANT PARAMS...: SOURCE to PTX with PARAMS, WANT (an instruction) in
# the PTX, and ptxas for sm_80 must take it; one ok or FAIL line, fail=1 on a FAIL.
sm80_check() {
    local src=$1 name=$2 want=$3; shift 3
    local what="$name $*"
    if ! nvcl "$src" "$tmp/s.ptx" "$@"; then
        echo "FAIL [$what] clang:"; head -20 "$tmp/err"; fail=1; return
    fi
    grep -q "$want" "$tmp/s.ptx" || { echo "FAIL [$what] no $want in the PTX"; fail=1; return; }
    sed -e 's/^\.version .*/.version 8.0/' "$tmp/s.ptx" > "$tmp/s80.ptx"
    if ! "$ptxas" -arch=sm_80 -v "$tmp/s80.ptx" -o /dev/null > "$tmp/log" 2>&1; then
        echo "FAIL [$what] sm_80:"; head -20 "$tmp/log"; fail=1; return
    fi
    echo "ok   [$what] sm_80 $want"
}
# Step 7 (SIMT) with a 16-bit C stores through the same pair conversion: its PTX must hold it
# and ptxas must take it.
# (fma on float4: clang's nvcl target has no definition to link; a contracted product here)
{ cat "$tmp/prelude.h"; echo '#define fma(a, b, c) ((a) * (b) + (c))'; expand 07_warp_tiled.cl
} > "$tmp/k7.cl"
for params in "-DGEMM_CTYPE=1" "-DGEMM_CTYPE=2 -DGEMM_EPILOGUE=4 -DGEMM_TRANS_B=1"; do
    sm80_check "$tmp/k7.cl" 07_warp_tiled.cl "$(cvt_of "$params")" $params
done
# Step 11's one-launch split on NVIDIA (CLGEMM_NV_PARTIALS, host/lib/plan.c): plain partial
# sums behind PTX's device-wide fence, which its PTX must hold and ptxas must take.
# (min on ints, the only kind the kernel takes, fma, the count's atomics and mem_fence: clang's
# nvcl target has no definitions to link; PTX's atomics stand in)
{ cat "$tmp/prelude.h"; cat <<'CL'
#define min(a, b) ((a) < (b) ? (a) : (b))
#define fma(a, b, c) ((a) * (b) + (c))
#define atomic_add(p, v) ({ int r_; __asm__ volatile("atom.global.add.u32 %0, [%1], %2;" \
    : "=r"(r_) : "l"(p), "r"(v) : "memory"); r_; })
#define atomic_xchg(p, v) ({ int r_; __asm__ volatile("atom.global.exch.b32 %0, [%1], %2;" \
    : "=r"(r_) : "l"(p), "r"(v) : "memory"); r_; })
#define mem_fence(f) ((void)0)
#define vload4(o, p) ((float4)((p)[4 * (o)], (p)[4 * (o) + 1], (p)[4 * (o) + 2], (p)[4 * (o) + 3]))
CL
  expand 11_skinny.cl; } > "$tmp/k11.cl"
# (fp32 data: the 16-bit build wants more of the built-ins than this stand-in list has)
for params in "-DBM=16 -DKT=8 -DRN=2 -DAL=512" "-DBM=4 -DGEMM_TRANS_B=1"; do
    sm80_check "$tmp/k11.cl" 11_skinny.cl membar.gl -DGEMM_KSPLIT=1 -DCLGEMM_NV_PARTIALS=1 $params
done
exit $fail
