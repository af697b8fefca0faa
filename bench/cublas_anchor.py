#!/usr/bin/env python3
"""cuBLAS through PyTorch on the same GPU, timed with CUDA events: an outside anchor for the
OpenCL numbers.  Modes: fp32 (TF32 off: the arithmetic of the SIMT kernels), tf32 (cuBLAS
may use TF32 tensor cores: the anchor for tensor_core), f16 and bf16 (16-bit inputs, the
anchor for --dtype f16/bf16).  bench/sweep.py imports time_matmul from here.
usage: cublas_anchor.py [--tf32 | --f16 | --bf16] N|MxNxK..."""
import sys


def time_matmul(M, N, K, mode='fp32', runs=20):
    """Median and minimum milliseconds of one M x N x K matmul in the given mode."""
    import torch
    torch.backends.cuda.matmul.allow_tf32 = mode == 'tf32'
    dtype = {'f16': torch.float16, 'bf16': torch.bfloat16}.get(mode, torch.float32)
    a = (torch.rand(M, K, device='cuda') * 2 - 1).to(dtype)
    b = (torch.rand(K, N, device='cuda') * 2 - 1).to(dtype)
    for _ in range(3):
        torch.matmul(a, b)
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        torch.matmul(a, b)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2], times[0]


def main():
    import torch
    args = sys.argv[1:]
    mode = next((m[2:] for m in args if m in ('--tf32', '--f16', '--bf16')), 'fp32')
    for size in [a for a in args if not a.startswith('--')] or ['4096']:
        M, N, K = [int(x) for x in size.split('x')] if 'x' in size else [int(size)] * 3
        med, _ = time_matmul(M, N, K, mode)
        print('cuBLAS %s (torch %s, %s) %dx%dx%d: %.3f ms, %.0f GFLOP/s' % (
            mode, torch.__version__, torch.cuda.get_device_name(), M, N, K, med,
            2.0 * M * N * K / med / 1e6))


if __name__ == '__main__':
    main()
