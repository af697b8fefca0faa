#!/usr/bin/env bash
# On an NVIDIA GPU: the register budgets the kernels' speed depends on, read from NVIDIA's own
# build log (-cl-nv-verbose).  Step 7's 128 x 128 tile runs two groups of 256 work-items per
# SM only at 128 registers or fewer (65536 / 512); at 129 one group is left and 4096^3 loses
# about a tenth, silently: a refactor of the C store did exactly that for two days
# (bench/results/2026-11-25_nvidia-h100/regs).  Lines marked "info" print a count the code
# does not yet keep within budget.  No GPU time is measured: this reads the compiler's words.
#   usage: bench/check_registers.sh CLGEMM [DEVICE]      exit 1 when a budget is broken
set -uo pipefail
clgemm=$1 device=${2:-nvidia}
status=0
tile=BM=128,BN=128,BK=8,TM=8,TN=8,WM=128,WN=16   # the 4096^3 tuning entry
check() {  # check LIMIT|info WHAT CLGEMM-ARGUMENTS...
    local limit=$1 what=$2; shift 2
    local regs
    regs=$(CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose \
           "$clgemm" --device "$device" --size 1024 --no-baseline --iters 1 --warmup 0 "$@" 2>&1 |
           sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | sort -n | tail -1)
    if [ -z "$regs" ]; then
        echo "FAIL $what: no register count in the build log (not NVIDIA's compiler?)"; status=1
    elif [ "$limit" = info ]; then
        echo "info $what: $regs registers"
    elif [ "$regs" -le "$limit" ]; then
        echo "ok   $what: $regs registers (budget $limit)"
    else
        echo "FAIL $what: $regs registers, over the budget of $limit"; status=1
    fi
}
check 128 "step 7 (warp_tiled), 128 x 128" --algo warp_tiled:$tile
check 128 "step 7, bf16 C and bias_gelu" --algo warp_tiled:$tile --out bf16 --epilogue bias_gelu
check 128 "step 7, f16 C" --algo warp_tiled:$tile --out f16
check info "step 7, B read transposed in place (READT=1)" --algo warp_tiled:$tile,READT=1 --trans NT
check info "step 7, a strided batch" --algo warp_tiled:$tile --batch 2
exit $status
