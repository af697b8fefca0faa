#!/usr/bin/env bash
# Probe 160: the floor of one kernel by OpenCL's events (bench/probes/launch_floor.c: idle and
# queued back to back, as clgemm times), and by CUDA events as bench/cublas.py times (runs
# queued behind a sleep): torch.cuda._sleep(0), a kernel that does nothing, and cuBLAS on a
# bf16 128x128x64; to put the 7 us of a tiny step 10 call (probe159) against cuBLAS's 5 us.
source .gpu/setup.sh
P=$OUT/probe160.txt
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
gcc -O2 -o /tmp/launch_floor bench/probes/launch_floor.c -lOpenCL && /tmp/launch_floor
python3 - <<'PY'
import torch
def med(f, n=300):
    for _ in range(20): f()
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]
    torch.cuda._sleep(int(n * 1e5))
    for a, b in ev:
        a.record(); f(); b.record()
    torch.cuda.synchronize()
    ts = sorted(a.elapsed_time(b) * 1e3 for a, b in ev)
    return ts[n // 2], ts[0]
x = torch.zeros(1, device='cuda')
print('CUDA events, queued: nothing between the events: median %.2f us  min %.2f' % med(lambda: None))
print('CUDA events, queued: torch.cuda._sleep(0): median %.2f us  min %.2f' % med(lambda: torch.cuda._sleep(0)))
print('CUDA events, queued: add_ on one value: median %.2f us  min %.2f' % med(lambda: x.add_(1)))
a = torch.randn(128, 64, device='cuda', dtype=torch.bfloat16); b = torch.randn(64, 128, device='cuda', dtype=torch.bfloat16)
print('CUDA events, queued: bf16 128x128x64 matmul: median %.2f us  min %.2f' % med(lambda: a @ b))
PY
} > $P 2>&1
cat $P
