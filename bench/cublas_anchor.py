#!/usr/bin/env python3
"""cuBLAS fp32 SGEMM through PyTorch on the same GPU, timed with CUDA events: an outside
anchor for the OpenCL numbers (TF32 off, so it is the same fp32 arithmetic)."""
import sys

import torch

torch.backends.cuda.matmul.allow_tf32 = False
for n in [int(a) for a in sys.argv[1:]] or [4096]:
    a = torch.rand(n, n, device='cuda') * 2 - 1
    b = torch.rand(n, n, device='cuda') * 2 - 1
    for _ in range(3):
        torch.matmul(a, b)
    times = []
    for _ in range(20):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        torch.matmul(a, b)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    med = times[len(times) // 2]
    print('cuBLAS fp32 (torch %s, %s) %dx%dx%d: %.3f ms, %.0f GFLOP/s' % (
        torch.__version__, torch.cuda.get_device_name(), n, n, n, med, 2 * n**3 / med / 1e6))
