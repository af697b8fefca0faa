#!/usr/bin/env bash
# The real (non-emulated) path of cl/09_wgmma.cl, cl/10_wgmma_tma.cl and cl/mma/, assembled without a GPU:
# clang compiles the kernel to PTX for NVPTX (OpenCL C, markers as comments), the PTX is made to
# look like NVIDIA's OpenCL output (.target sm_90, .version 9.0 as driver 580 writes it), ptxas accepts it for sm_90
# (the first build), tests/ptx_retarget_tool rewrites it, and ptxas must accept the result
# for sm_90a with real wgmma in it (the second build), with no spills and no serialised wgmma.
# This checks the asm syntax, the operand substitution into the markers and the post-pass; it
# is not NVIDIA's OpenCL compiler, whose PTX differs in detail.
#   usage: test_wgmma_ptxas.sh SOURCE_ROOT RETARGET_TOOL   (exit 77 = skipped)
set -uo pipefail
root=$1 tool=$2
. "$root/tests/ptxas_common.sh"  # clang, ptxas, $tmp with prelude.h, expand()
merge() {  # -DKEY=VALUE words, a later KEY replacing an earlier one in place
    printf '%s\n' "$@" | awk -F= 'NF { if (!($1 in at)) keys[at[$1] = ++n] = $1; v[$1] = $0 }
        END { for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), v[keys[i]] }'
}
fail=0
# Step 9's unswizzled exploration tile (one warpgroup on 64 x 256, 16-deep slices four deep,
# one wgmma group in flight) and step 10's within 48 KiB (one consumer on 64 x 256, BK 16):
# the variants below are written from these.
u9="-DBM=64 -DBN=256 -DWGN=256 -DBK=16 -DSTAGES=4 -DWAIT=1 -DSWZ=0"
t10="-DBM=64 -DBN=256 -DWGN=256 -DBK=16 -DSTAGES=4 -DINFLIGHT=1"
# "wg:" entries are cl/09_wgmma.cl (cp.async, m64nNk16, DTYPE 1 f16 / 2 bf16), "tma:" entries
# cl/10_wgmma_tma.cl (TMA copies, mbarriers, producer warp; DTYPE 0 is TF32 on the packed
# operands, SPLIT=1 tf32x3; PACKA / PACKB = 2 round
# slices in local memory, PACKA=3 A in registers (wgmma's RS form), 0 and 1 only tell the
# host what to pack).  Step 9's registry
# default first: two warpgroups on 128 x 128, 32-deep 64-byte swizzled slices two deep.  The
# last three store a 16-bit C through a fused epilogue (cl/epilogue.h).
for params in "wg:" "wg:-DDTYPE=2" "wg:$u9" "wg:$u9 -DDTYPE=2" "wg:$u9 -DWAIT=0 -DSTAGES=3" \
        "wg:$u9 -DBM=128 -DBN=128 -DWGN=128 -DBK=16 -DSTAGES=4" \
        "wg:$u9 -DDTYPE=2 -DBN=128 -DWGN=128 -DBK=32 -DSTAGES=3" \
        "wg:$u9 -DBM=128 -DBN=256 -DBK=16 -DSTAGES=3" \
        "wg:$u9 -DBN=192 -DWGN=64 -DSTAGES=4" "wg:$u9 -DBK=32 -DSTAGES=2 -DWAIT=0" \
        "wg:$u9 -DBN=128 -DWGN=128 -DBK=16 -DSTAGES=6" \
        "wg:$u9 -DSWZ=32 -DBM=128 -DBN=128 -DWGN=128 -DBK=16 -DSTAGES=4" \
        "wg:$u9 -DDTYPE=2 -DSWZ=64 -DBN=128 -DWGN=128 -DBK=32 -DSTAGES=3 -DWAIT=0" \
        "wg:$u9 -DSWZ=128 -DBN=64 -DWGN=64 -DBK=64 -DSTAGES=2 -DWAIT=0" \
        "tma:$t10" "tma:$t10 -DDTYPE=2 -DBK=32 -DSTAGES=2" "tma:$t10 -DDTYPE=2 -DINFLIGHT=0" \
        "tma:$t10 -DBK=64 -DBN=64 -DWGN=64 -DSTAGES=2" \
        "tma:$t10 -DDTYPE=0 -DBK=8 -DPACKA=0" "tma:$t10 -DDTYPE=0 -DSTAGES=2 -DPACKA=1" \
        "tma:$t10 -DDTYPE=0 -DBM=128 -DBN=128 -DWGN=128 -DBK=8 -DSTAGES=5" \
        "tma:$t10 -DDTYPE=0 -DBM=128 -DBK=8 -DSTAGES=3 -DPACKA=0" \
        "tma:$t10 -DDTYPE=0 -DBN=64 -DWGN=64 -DBK=32 -DSTAGES=2" \
        "tma:$t10 -DDTYPE=0 -DBN=64 -DWGN=64 -DBK=32 -DSTAGES=2 -DPACKA=2 -DPACKB=2" \
        "tma:$t10 -DDTYPE=0 -DBM=128 -DBN=64 -DWGN=64 -DBK=16 -DSTAGES=3 -DPACKB=2" \
        "tma:$t10 -DDTYPE=0 -DSPLIT=1 -DBN=64 -DWGN=64 -DBK=16 -DSTAGES=2" \
        "tma:$t10 -DDTYPE=0 -DSPLIT=1 -DBM=128 -DBN=64 -DWGN=64 -DBK=8 -DSTAGES=2 -DINFLIGHT=0" \
        "wg:-DDTYPE=2 -DGEMM_CTYPE=2 -DGEMM_EPILOGUE=5" \
        "tma:$t10 -DDTYPE=2 -DGEMM_CTYPE=2 -DGEMM_EPILOGUE=5 -DGEMM_BIAS_ROWS=1" \
        "tma:$t10 -DDTYPE=0 -DBK=8 -DGEMM_CTYPE=1 -DGEMM_EPILOGUE=3" \
        "tma:$t10 -DDTYPE=2 -DBN=16 -DWGN=16 -DBK=64 -DSTAGES=4 -DGEMM_TRANS_B=1 -DGEMM_TRANS_C=1 -DGEMM_CTYPE=2" \
        "tma:$t10 -DDTYPE=0 -DBM=128 -DBN=8 -DWGN=8 -DBK=32 -DSTAGES=2 -DPACKA=2 -DPACKB=2 -DGEMM_TRANS_C=1" \
        "tma:$t10 -DDTYPE=0 -DBK=8 -DGEMM_CTYPE=2 -DGEMM_EPILOGUE=3" "tma:$t10 -DDTYPE=0 -DBK=8 -DGEMM_EPILOGUE=5" \
        "tma:$t10 -DDTYPE=0 -DBK=8 -DGEMM_CTYPE=2 -DGEMM_EPILOGUE=5" \
        "tma:$t10 -DDTYPE=2 -DBN=16 -DWGN=16 -DBK=64 -DSTAGES=4 -DGEMM_TRANS_B=1 -DGEMM_TRANS_C=1 -DGEMM_KSPLIT=1" \
        "tma:$t10 -DDTYPE=0 -DBM=128 -DBN=64 -DWGN=64 -DBK=16 -DSTAGES=3 -DPACKA=2 -DPACKB=2 -DGEMM_KSPLIT=1 -DGEMM_EPILOGUE=5" \
        "tma:$t10 -DDTYPE=0 -DBM=128 -DBN=64 -DWGN=64 -DBK=16 -DSTAGES=3 -DPACKA=3 -DINFLIGHT=0" \
        "tma:$t10 -DDTYPE=0 -DBM=128 -DBN=256 -DWGN=256 -DBK=8 -DSTAGES=2 -DPACKA=3 -DINFLIGHT=0 -DSETMAXNREG=1" \
        "tma:$t10 -DDTYPE=0 -DSPLIT=1 -DPROMOTE=2 -DBM=128 -DBN=192 -DWGN=64 -DBK=8 -DSTAGES=2 -DPACKA=3 -DINFLIGHT=0 -DSETMAXNREG=1" \
        "tma:$t10 -DDTYPE=0 -DSPLIT=1 -DPACKA=3 -DINFLIGHT=0 -DBM=128 -DBN=32 -DWGN=32 -DBK=16 -DSTAGES=2 -DGEMM_TRANS_C=1 -DGEMM_KSPLIT=1" \
        "tma:$t10 -DDTYPE=0 -DBM=128 -DBN=16 -DWGN=16 -DBK=32 -DSTAGES=2 -DPACKA=3 -DINFLIGHT=0 -DPACKB=2 -DGEMM_KSPLIT=1 -DGEMM_TRANS_C=1" \
        "tma:$t10 -DDTYPE=0 -DBM=128 -DBN=64 -DWGN=64 -DBK=16 -DSTAGES=2 -DPACKA=2 -DPACKB=2 -DROUNDER=1 -DGEMM_TRANS_C=1" \
        "tma:$t10 -DDTYPE=0 -DBN=32 -DWGN=32 -DBK=32 -DSTAGES=3 -DPACKA=3 -DINFLIGHT=0 -DPACKB=2 -DROUNDER=1 -DGEMM_KSPLIT=1" \
        "tma:$t10 -DDTYPE=0 -DSPLIT=1 -DBN=16 -DWGN=16 -DBK=32 -DSTAGES=3 -DPACKA=3 -DINFLIGHT=0 -DPACKB=2 -DROUNDER=1 -DGEMM_KSPLIT=1 -DGEMM_TRANS_C=1" \
        "tma:$t10 -DDTYPE=2 -DBN=64 -DWGN=64 -DPERSIST=1 -DGEMM_CTYPE=2" \
        "tma:$t10 -DDTYPE=0 -DBN=64 -DWGN=64 -DSTAGES=2 -DPACKA=3 -DINFLIGHT=0 -DPERSIST=1 -DGEMM_TRANS_C=1" \
        "tma:$t10 -DDTYPE=0 -DBM=128 -DBN=64 -DWGN=64 -DBK=16 -DSTAGES=2 -DPACKA=3 -DINFLIGHT=0 -DPACKB=2 -DROUNDER=1 -DGEMM_TRANS_A=1 -DGEMM_TRANS_B=1 -DGEMM_TRANS_C=1 -DGEMM_KSPLIT=1" \
        "tma:$t10 -DDTYPE=0 -DBN=64 -DWGN=64 -DBK=16 -DSTAGES=2 -DPACKA=3 -DINFLIGHT=0 -DPERSIST=1 -DGEMM_TRANS_A=1 -DGEMM_BATCHED=1" \
        "tma:$t10 -DDTYPE=2 -DBN=64 -DWGN=64 -DPERSIST=1 -DTSTORE=1 -DGEMM_CTYPE=2 -DGEMM_EPILOGUE=4" \
        "tma:$t10 -DDTYPE=0 -DBN=64 -DWGN=64 -DSTAGES=2 -DPACKA=3 -DINFLIGHT=0 -DTSTORE=1 -DGEMM_EPILOGUE=5"; do
    # (No shapes beyond 48 KiB of local memory here: the CUDA toolkit's ptxas refuses more than
    # 0xc000 bytes of static shared memory, where the driver's own compiler takes 227 KiB; so
    # neither step 10 registry default is among them.)
    case $params in wg:*) file=09_wgmma.cl params=${params#wg:} ;;
                    tma:*) file=10_wgmma_tma.cl params=${params#tma:} ;; esac
    params=$(merge $params)
    { cat "$tmp/prelude.h"; expand $file; } > "$tmp/k.cl"
    # "inline" as static inline: clang may keep a plain C99 inline function out of line,
    # without a definition to link.  asm: clang's OpenCL mode spells it __asm__.
    if ! "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -march=sm_80 -O3 -S \
            -Xclang -finclude-default-header -DCLGEMM_PTX_SM90A=1 -DCLGEMM_NV_SM80=1 -DGEMM_BATCHED=1 -Dasm=__asm__ \
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
    # step 9 finds its problem of a strided batch in dimension 2 of the grid; step 10 is
    # not batched (its tensor maps describe one matrix)
    if [ $file = 09_wgmma.cl ] && ! grep -q "%ctaid.z" "$tmp/sm90a.ptx"; then
        echo "FAIL [$params] no %ctaid.z (batch entry) in the PTX"; fail=1; continue
    fi
    if [[ $params == *-DPACKA=3* ]]; then   # A from registers: a list of four after D
        grep -qE "^[[:space:]]*wgmma.mma_async.sync.aligned.m64n[0-9]+k8.f32.tf32.tf32 \{[^}]*\}, \{%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+\}, %rd[0-9]+, p, 1, 1;" \
            "$tmp/sm90a.ptx" ||
            { echo "FAIL [$params] no m64nNk8.f32.tf32.tf32 with A from registers"; fail=1; continue; }
    elif [[ $params == *-DDTYPE=0* ]]; then   # packed TF32: both operands K-major
        grep -qE "^[[:space:]]*wgmma.mma_async.sync.aligned.m64n[0-9]+k8.f32.tf32.tf32 .*, p, 1, 1;" \
            "$tmp/sm90a.ptx" ||
            { echo "FAIL [$params] no m64nNk8.f32.tf32.tf32"; fail=1; continue; }
    else   # the 16-bit form, its type, B read N-major (K-major where stored N x K)
        case $params in *-DDTYPE=2*) ty=bf16 ;; *) ty=f16 ;; esac
        case $params in *-DGEMM_TRANS_B=1*) tb=0 ;; *) tb=1 ;; esac
        grep -qE "^[[:space:]]*wgmma.mma_async.sync.aligned.m64n[0-9]+k16.f32.$ty.$ty .*, p, 1, 1, 0, $tb;" \
            "$tmp/sm90a.ptx" ||
            { echo "FAIL [$params] no m64nNk16.f32.$ty.$ty with trans-b $tb"; fail=1; continue; }
    fi
    # SETMAXNREG: both setmaxnreg instructions, and the entry's header as the driver and the
    # host leave it (.reqntid from reqd_work_group_size, .maxnreg 168 from plan.c): without a
    # count at entry ptxas ignores setmaxnreg (C7508), and a producer that needs more than its
    # 40 registers spills
    if [[ $params == *-DSETMAXNREG=1* ]]; then
        grep -q "^[[:space:]]*setmaxnreg.dec.sync.aligned.u32 40;" "$tmp/sm90a.ptx" &&
            grep -q "^[[:space:]]*setmaxnreg.inc.sync.aligned.u32 232;" "$tmp/sm90a.ptx" ||
            { echo "FAIL [$params] no setmaxnreg.dec 40 / .inc 232"; fail=1; continue; }
        awk '/^\.entry gemm_wgmma_tma/ { e = 1 } e && /^\{/ { print ".reqntid 384, 1, 1"; print ".maxnreg 168"; e = 0 } { print }' \
            "$tmp/sm90a.ptx" > "$tmp/smn.ptx" && mv "$tmp/smn.ptx" "$tmp/sm90a.ptx"
    fi
    # swizzled (step 10 always, step 9 unless SWZ=0): the arena 1024-byte aligned (the
    # descriptors' base offset is 0)
    if [ $file = 10_wgmma_tma.cl ] || [[ " $params " != *" -DSWZ=0 "* ]]; then
        grep -qE "^[[:space:]]*\.shared \.align 1024 " "$tmp/sm90a.ptx" ||
            { echo "FAIL [$params] local arena not .align 1024"; grep "\.shared \.align" "$tmp/sm90a.ptx"; fail=1; continue; }
    fi
    if ! "$ptxas" -arch=sm_90a -v "$tmp/sm90a.ptx" -o /dev/null > "$tmp/log" 2>&1; then
        echo "FAIL [$params] second build (sm_90a):"; head -20 "$tmp/log"; fail=1; continue
    fi
    info=$(grep -E "registers|spill" "$tmp/log" | tr -s ' \n' ' ')
    if grep -qiE "serializ|warning|ignored" "$tmp/log" || grep -q " [1-9][0-9]* bytes spill stores" "$tmp/log" ||
            ! grep -q " 0 bytes spill stores" "$tmp/log"; then
        echo "FAIL [$params] $info"; grep -iE "serializ|warning|ignored" "$tmp/log"; fail=1; continue
    fi
    echo "ok   $file [${params:-defaults}] $info"
done
# Step 9 takes 16-bit data only, tf32x3 needs B packed and A packed or in registers, and A
# in registers no slice still running: each must say so.
for bad in "09_wgmma.cl:-DDTYPE=0:fp32 data runs step 10" \
        "10_wgmma_tma.cl:$t10 -DDTYPE=0 -DSPLIT=1 -DPACKA=0:needs DTYPE 0, PACKA 1" \
        "10_wgmma_tma.cl:$t10 -DDTYPE=0 -DSPLIT=1 -DPACKA=3:PACKA 3 needs INFLIGHT 0" \
        "10_wgmma_tma.cl:$t10 -DSETMAXNREG=1:1 needs BM 128 (two consumers)"; do
    IFS=: read -r file params want <<< "$bad"
    params=$(merge $params)
    { cat "$tmp/prelude.h"; expand $file; } > "$tmp/k.cl"
    if "$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -march=sm_80 -O3 -S \
            -Xclang -finclude-default-header -DCLGEMM_PTX_SM90A=1 -DCLGEMM_NV_SM80=1 -DGEMM_BATCHED=1 -Dasm=__asm__ \
            "-Dinline=static inline" $params -o "$tmp/k.ptx" "$tmp/k.cl" 2> "$tmp/err" ||
            ! grep -q "$want" "$tmp/err"; then
        echo "FAIL $file [$params] should stop with \"$want\""; head -5 "$tmp/err"; fail=1
    else
        echo "ok   $file [$params] refused: $want"
    fi
done
exit $fail
