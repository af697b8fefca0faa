#!/usr/bin/env bash
# Probe 263 (H100).  A: a fused bias_gelu at 4096^3 (N N, as bench/run.py epilogues) with C
# handed to the copy engine (TSTORE=1) for an fp32 C, where the default stores it directly
# (GELU) or staged (plain): TF32 (tensor_core's no-rule form, PACKA=3,SETMAXNREG=1) and bf16
# data.  B: the fp32 N T batch 512 x 128^2 x 64 (1.93x CLBlast, issue #16 asks 2x) on step 7
# tiles and slices beside the rule's, CLBlast in the same process at the end.
source bench/probes/probe.sh probe263
export PROBE_TIMEOUT=120
{
probe_header
TF='wgmma_tma:PACKA=3,SETMAXNREG=1'
for r in 1 2 3; do
  probe_run "r$r tf32 plain tensor_core" --size 4096 --algo tensor_core
  probe_run "r$r tf32 plain TSTORE=1" --size 4096 --algo $TF,TSTORE=1
  probe_run "r$r tf32 bias_gelu tensor_core" --size 4096 --algo tensor_core --epilogue bias_gelu
  probe_run "r$r tf32 bias_gelu TSTORE=1" --size 4096 --algo $TF,TSTORE=1 --epilogue bias_gelu
  probe_run "r$r tf32 bias_gelu STAGED=1,TSTORE=1" --size 4096 --algo $TF,STAGED=1,TSTORE=1 --epilogue bias_gelu
  probe_run "r$r bf16 plain tensor_core" --size 4096 --dtype bf16 --algo tensor_core
  probe_run "r$r bf16 bias_gelu tensor_core" --size 4096 --dtype bf16 --algo tensor_core --epilogue bias_gelu
  probe_run "r$r bf16 bias_gelu TSTORE=1" --size 4096 --dtype bf16 --algo wgmma_tma:TSTORE=1 --epilogue bias_gelu
done
R='BK=16,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1'
for r in 1 2; do
  for v in "$R,MAXNREG=128" "$R,MAXNREG=128,BM=64" "$R,MAXNREG=128,BN=64" "$R,BM=64" "$R,BN=64" \
           "BK=8,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1,MAXNREG=128" "BK=16,READT=1,PREFETCH=1,WM=32,WN=64,CLAMP=1,MAXNREG=128" \
           "BK=16,READT=1,PREFETCH=1,WM=64,WN=32,CLAMP=1,BM=64,BN=64"; do
    probe_run "r$r f32 NT batch512 128x128x64 $v" --size 128x128x64 --batch 512 --trans NT --algo warp_tiled:$v
  done
done
CLGEMM_BUILD_OPTIONS= timeout 120 build-gpu/clgemm --device nvidia --size 128x128x64 --batch 512 --trans NT \
  --algo auto --algo "warp_tiled:$R,MAXNREG=128,BM=64" --algo "warp_tiled:$R,MAXNREG=128,BN=64" 2>&1 | tail -6
python3 bench/cublas.py tf32:4096 bf16:4096 fp32:128x128x64:NT:b512 2>&1 | grep "^cublas:"
} > $P 2>&1
cat $P
