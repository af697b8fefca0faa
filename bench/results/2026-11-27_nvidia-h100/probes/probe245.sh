#!/usr/bin/env bash
# Probe 245 (H100): which kernels cuBLAS (through PyTorch) launches at the Llama shapes where
# clgemm trails it, read from the PyTorch profiler: kernel names carry cuBLAS's tile, cluster
# and split choices.  X @ W^T with W stored N x K, as bench/cublas.py's N T jobs.
P=$OUT/probe245.txt
python3 - > $P 2>&1 <<'PYEOF'
import torch
from torch.profiler import profile, ProfilerActivity
torch.backends.cuda.matmul.allow_tf32 = False
print(torch.__version__, torch.cuda.get_device_name(), flush=True)
shapes = [(1,4096,4096),(16,4096,4096),(16,6144,4096),(128,4096,4096),(128,6144,4096),(128,28672,4096),
          (128,4096,14336),(4096,4096,4096),(4096,4096,14336),(256,4096,4096),(512,4096,4096)]
modes = {'fp32': torch.float32, 'tf32': torch.float32, 'f16': torch.float16, 'bf16': torch.bfloat16}
for mode, dt in modes.items():
    torch.backends.cuda.matmul.allow_tf32 = (mode == 'tf32')
    for (M, N, K) in shapes:
        x = torch.rand(M, K, device='cuda', dtype=dt) * 2 - 1
        w = torch.rand(N, K, device='cuda', dtype=dt) * 2 - 1
        for _ in range(3): y = x @ w.t()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(5): y = x @ w.t()
            torch.cuda.synchronize()
        names = {}
        for e in prof.events():
            if e.device_type == torch.autograd.DeviceType.CUDA:
                k = names.setdefault(e.name, [0, 0.0]); k[0] += 1; k[1] += e.device_time
        for n, (c, t) in names.items():
            print('%s %dx%dx%d n=%d us=%.1f %s' % (mode, M, N, K, c, t / max(c,1), n[:230]), flush=True)
PYEOF
cat $P
