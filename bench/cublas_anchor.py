#!/usr/bin/env python3
"""cuBLAS SGEMM through PyTorch on the same GPU, timed with CUDA events: an outside anchor
for the OpenCL numbers.  Plain fp32 by default (TF32 off, the same arithmetic as the SIMT
kernels); `--tf32` lets cuBLAS use TF32 tensor cores, the anchor for tensor_core.
usage: cublas_anchor.py [--tf32] N..."""
import sys

import torch

args = sys.argv[1:]
tf32 = '--tf32' in args
torch.backends.cuda.matmul.allow_tf32 = tf32
mode = 'TF32' if tf32 else 'fp32'
for n in [int(a) for a in args if a != '--tf32'] or [4096]:
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
    print('cuBLAS %s (torch %s, %s) %dx%dx%d: %.3f ms, %.0f GFLOP/s' % (
        mode, torch.__version__, torch.cuda.get_device_name(), n, n, n, med, 2 * n**3 / med / 1e6))
