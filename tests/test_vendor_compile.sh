#!/usr/bin/env bash
# Compile test of step 8's gemm_mma kernels for GPUs that CI does not have:
#   cl/vendor/intel_dpas.cl  with Intel's offline compiler (ocloc) for dg2 (subgroup 8)
#                            and pvc (subgroup 16), fp32 (DTYPE=0) and 16-bit (DTYPE=1 f16,
#                            2 bf16) inputs, checking that DPAS is emitted;
#   cl/vendor/amd_matrix.cl  with clang-15 for gfx90a and gfx942 (gfx940 where clang-15
#                            predates gfx942), checking for v_mfma, and gfx1100 for v_wmma
#                            (fp32 inputs, and f16 / bf16 inputs with the matching WMMA).
# Like the host, it pastes cl/common.h over the `#include "common.h"` line first.
#
# Usage: tests/test_vendor_compile.sh SOURCE_DIR     (the project root, or its cl/)
# Tools: ocloc (Debian: intel-opencl-icd), clang-15 (clang-15), llvm-objdump-15
# (llvm-15); override with $OCLOC, $CLANG, $OBJDUMP.  A missing tool is a failure.
# Prints one line per check and "N passed, N failed"; exits 1 if any check failed.
set -uo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 SOURCE_DIR" >&2
    exit 2
fi
if [ -f "$1/cl/common.h" ]; then
    CL_DIR="$1/cl"
elif [ -f "$1/common.h" ]; then
    CL_DIR="$1"
else
    echo "$0: no cl/common.h under $1" >&2
    exit 2
fi

OCLOC=${OCLOC:-ocloc}
CLANG=${CLANG:-clang-15}
OBJDUMP=${OBJDUMP:-llvm-objdump-15}

passed=0
failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
# The last lines of a log, indented, after a failure.
show() { sed -n '1,40p' "$1" | sed 's/^/    | /'; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/clgemm-vendor.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT

# The host's textual include: the line `#include "common.h"` becomes the file, and so does
# common.h's own `#include "epilogue.h"`.
paste_common() { # SRC DST
    awk -v dir="$CL_DIR" '
        function paste(file,    l) {
            while ((getline l < file) > 0) {
                if (l ~ /^[ \t]*#[ \t]*include[ \t]*"(common|epilogue)\.h"/) {
                    sub(/^[^"]*"/, "", l)
                    sub(/".*$/, "", l)
                    paste(dir "/" l)
                } else
                    print l
            }
            close(file)
        }
        /^[ \t]*#[ \t]*include[ \t]*"common.h"/ { paste(dir "/common.h"); next }
        { print }' "$1" > "$2"
}

have_tool() { # NAME PACKAGE
    if command -v "$1" > /dev/null 2>&1; then
        pass "tool $1 found ($(command -v "$1"))"
        return 0
    fi
    fail "tool $1 not found: install the Debian package $2 (apt-get install $2)"
    return 1
}

# ---- Intel: ocloc ------------------------------------------------------------------------
intel_runs=0
intel_compile() { # DEVICE EXTRA_OPTIONS [TYPE: the operand type the dpas lines must name]
    local dev=$1 extra=$2 want=${3:-} src="$WORK/intel_dpas.cl"
    intel_runs=$((intel_runs + 1))   # a folder per compile: no dump counts twice
    local out="$WORK/intel-$dev-$intel_runs" dump="$WORK/intel-$dev-$intel_runs-dump"
    local opts="-cl-std=CL2.0 $extra"
    mkdir -p "$out" "$dump"
    echo "  \$ $OCLOC compile -file intel_dpas.cl -device $dev -options \"$opts\" -out_dir $out"
    # IGC writes its own assembly listing (.asm) when asked to dump shaders.
    if ! IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir="$dump" \
            "$OCLOC" compile -file "$src" -device "$dev" -options "$opts" -out_dir "$out" \
            > "$out.log" 2>&1; then
        fail "intel $dev: ocloc compile failed:"
        show "$out.log"
        return
    fi
    local bin
    bin=$(find "$out" -name '*.bin' -size +0 | head -n 1)
    if [ -n "$bin" ]; then
        pass "intel $dev ($extra): ocloc built $(basename "$bin") ($(stat -c %s "$bin") bytes)"
    else
        fail "intel $dev: ocloc reported success but wrote no .bin"
        show "$out.log"
        return
    fi
    local n
    n=$(cat "$dump"/*.asm 2> /dev/null | grep -c '^[[:space:]]*dpas' || true)
    if [ "${n:-0}" -gt 0 ]; then
        pass "intel $dev: $n dpas instructions in IGC's assembly dump"
    else
        fail "intel $dev: no dpas instruction in IGC's assembly dump ($dump)"
    fi
    if [ -n "$want" ]; then
        local typed
        typed=$(cat "$dump"/*.asm 2> /dev/null | grep '^[[:space:]]*dpas' | grep -c ":$want" || true)
        if [ "${typed:-0}" -eq "${n:-0}" ] && [ "${n:-0}" -gt 0 ]; then
            pass "intel $dev ($extra): every dpas reads $want operands"
        else
            fail "intel $dev ($extra): $typed of ${n:-0} dpas lines read $want operands"
            cat "$dump"/*.asm 2> /dev/null | grep '^[[:space:]]*dpas' | head -2 | sed 's/^/    | /'
        fi
    fi
}

if have_tool "$OCLOC" intel-opencl-icd; then
    paste_common "$CL_DIR/vendor/intel_dpas.cl" "$WORK/intel_dpas.cl"
    intel_compile dg2 "-DSG=8 -DDTYPE=0"    # Xe-HPG (Arc A-series, Flex): 8-wide DPAS subgroups
    intel_compile pvc "-DSG=16 -DDTYPE=0"   # Xe-HPC (Data Center GPU Max): 16-wide
    t32="-DBM=128 -DBN=128 -DBK=16 -DTM=16 -DTN=4"   # the registry's fp32 tile
    intel_compile dg2 "-DSG=8 -DDTYPE=0 $t32"
    intel_compile pvc "-DSG=16 -DDTYPE=0 $t32"
    # --dtype f16 / bf16: 16-bit inputs staged as they are, f16 and bf16 DPAS, with the tile
    # the registry gives them
    t16="-DBM=128 -DBN=128 -DBK=32 -DTM=16 -DTN=4"
    intel_compile dg2 "-DSG=8 -DDTYPE=1 $t16" hf
    intel_compile dg2 "-DSG=8 -DDTYPE=2 $t16" bf
    intel_compile pvc "-DSG=16 -DDTYPE=2 $t16" bf
fi

# ---- AMD: clang-15 + llvm-objdump-15 -----------------------------------------------------
amd_runs=0
amd_compile() { # MCPU PATTERN [EXTRA_OPTIONS]
    amd_runs=$((amd_runs + 1))
    local cpu=$1 pattern=$2 extra=${3:-} obj="$WORK/amd-$1-$amd_runs.o"
    # shellcheck disable=SC2206  # the extra options are words
    local cmd=("$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$cpu" -nogpulib
               -O3 $extra -c "$WORK/amd_matrix.cl" -o "$obj")
    echo "  \$ ${cmd[*]}"
    if ! "${cmd[@]}" > "$obj.log" 2>&1; then
        fail "amd $cpu: clang compile failed:"
        show "$obj.log"
        return
    fi
    if ! "$OBJDUMP" -d "$obj" > "$obj.s" 2> "$obj.dis.log"; then
        fail "amd $cpu: $OBJDUMP -d failed:"
        show "$obj.dis.log"
        return
    fi
    local n insn
    n=$(grep -c "$pattern" "$obj.s" || true)
    insn=$(grep -o "${pattern}[a-z0-9_]*" "$obj.s" | sort -u | tr '\n' ' ')
    if [ "${n:-0}" -gt 0 ]; then
        pass "amd $cpu${extra:+ ($extra)}: $n matrix instructions in the object ($insn)"
    else
        fail "amd $cpu: compiled, but no $pattern instruction in the object"
    fi
}

have_clang=0
have_objdump=0
have_tool "$CLANG" clang-15 && have_clang=1
have_tool "$OBJDUMP" llvm-15 && have_objdump=1
if [ $have_clang = 1 ] && [ $have_objdump = 1 ]; then
    paste_common "$CL_DIR/vendor/amd_matrix.cl" "$WORK/amd_matrix.cl"
    amd_compile gfx90a v_mfma -DDTYPE=0  # CDNA2, MI200 (wave64, MFMA fp32)
    # CDNA3 (MI300) is gfx942; clang-15 only knows its sibling gfx940 (same MFMA set).
    if "$CLANG" -x cl -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -E - \
            < /dev/null > /dev/null 2>&1; then
        amd_compile gfx942 v_mfma -DDTYPE=0
    else
        echo "  ($CLANG does not know gfx942: compiling for gfx940, the same MFMA family)"
        amd_compile gfx940 v_mfma -DDTYPE=0
    fi
    amd_compile gfx1100 v_wmma -DDTYPE=0 # RDNA3 (wave32, WMMA f16)
    t32="-DBM=128 -DBN=128 -DBK=16 -DTM=16 -DTN=4"   # the registry's fp32 tile
    amd_compile gfx90a v_mfma "-DDTYPE=0 $t32"
    amd_compile gfx1100 v_wmma "-DDTYPE=0 $t32"
    # --dtype f16 / bf16 on RDNA3: 16-bit inputs staged as they are, f16 and bf16 WMMA
    t16="-DBM=64 -DBN=64 -DBK=32 -DTM=4 -DTN=4"   # the registry's tile for them
    amd_compile gfx1100 v_wmma_f32_16x16x16_f16 "-DDTYPE=1 $t16"
    amd_compile gfx1100 v_wmma_f32_16x16x16_bf16 "-DDTYPE=2 $t16"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
