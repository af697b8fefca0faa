#!/usr/bin/env bash
# Probe 294 (H200): probe293 found step 10's M = 128 calls bound by the weight's own TMA boxes
# (64 rows x 128 bytes, ~2.7 TB/s from 96 groups).  Timed as a pure stream (probe293.patch:
# -DPROBE_NO_MMA -DPROBE_NO_B, only the weight's boxes copied, --no-check) against what could
# bound it: slots in flight (STAGES 2/4/8), 64-byte rows per box (BK 32), 128-row boxes (BM
# 128), and a weight pitch that is not a power of two (--ld-pad: 4096 bf16 = 8 KiB rows; are the
# rows' same columns falling on the same memory channels?); then the whole kernel with the
# padded pitch, and cuBLAS (PyTorch) on the same padded weight.  bf16 and TF32 N T, two rounds.
patch -p1 < .gpu/probe293.patch
source bench/probes/probe.sh probe294
export PROBE_TIMEOUT=120
CO="-DPROBE_NO_MMA=1 -DPROBE_NO_B=1"
R16="BM=64,BN=128,WGN=128,SWAP=1,INFLIGHT=1"
B16=(--trans NT --iters 50 --no-check --dtype bf16 --out bf16)
TF=(--trans NT --iters 50 --no-check)
{
probe_header
for r in 1 2; do
  for s in 128x6144x4096 128x28672x4096; do
    for pad in 0 8 64; do
      PROBE_OPTIONS=$CO probe_run "r$r bf16 $s copy rule pad$pad" --size $s --ld-pad $pad "${B16[@]}" --algo tensor_core
    done
    PROBE_OPTIONS=$CO probe_run "r$r bf16 $s copy S2/S4/BK32S16/BK32S8/BM128S6" --size $s "${B16[@]}" \
      --algo wgmma_tma:$R16,STAGES=2 --algo wgmma_tma:$R16,STAGES=4 \
      --algo wgmma_tma:$R16,BK=32,STAGES=16 --algo wgmma_tma:$R16,BK=32,STAGES=8 \
      --algo wgmma_tma:BM=128,BN=128,WGN=128,SWAP=1,INFLIGHT=1,STAGES=6
    for pad in 0 32; do
      PROBE_OPTIONS=$CO probe_run "r$r tf32 $s copy rule pad$pad" --size $s --ld-pad $pad "${TF[@]}" --algo tensor_core
    done
  done
  for s in 128x6144x4096 128x28672x4096 128x4096x14336; do
    for pad in 0 8 64; do
      PROBE_OPTIONS= probe_run "r$r bf16 $s whole pad$pad" --size $s --ld-pad $pad "${B16[@]}" --algo tensor_core
    done
    for pad in 0 4 32; do
      PROBE_OPTIONS= probe_run "r$r tf32 $s whole pad$pad" --size $s --ld-pad $pad "${TF[@]}" --algo tensor_core
    done
  done
done
echo "cuBLAS (PyTorch), X @ W^T, W a view of rows padded by PAD elements; ms median of 50 (min)"
python3 - <<'PY' 2>&1 | grep -v Warning
import torch
torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
torch.backends.cuda.matmul.allow_tf32 = True
def t(f, n=50):
    for _ in range(5): f()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]
    torch.cuda._sleep(50_000_000)
    for a, b in ev:
        a.record(); f(); b.record()
    torch.cuda.synchronize()
    ms = sorted(a.elapsed_time(b) for a, b in ev)
    return (ms[n // 2 - 1] + ms[n // 2]) / 2, ms[0]
for r in (1, 2):
    for M, N, K in ((128, 6144, 4096), (128, 28672, 4096), (128, 4096, 14336)):
        for name, dt, pads in (('bf16', torch.bfloat16, (0, 8, 64)), ('tf32', torch.float32, (0, 4, 32))):
            for pad in pads:
                x = torch.rand(M, K, device='cuda', dtype=dt) * 2 - 1
                w = (torch.rand(N, K + pad, device='cuda', dtype=dt) * 2 - 1)[:, :K]
                out = torch.empty(M, N, device='cuda', dtype=dt)
                med, mn = t(lambda: torch.matmul(x, w.t(), out=out))
                print('r%d cublas %s %dx%dx%d pad%d %.4f (%.4f)' % (r, name, M, N, K, pad, med, mn), flush=True)
PY
} > $P 2>&1
cat $P
