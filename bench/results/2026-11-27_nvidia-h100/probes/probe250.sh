#!/usr/bin/env bash
# Probe 250 (H100): how fast can a tight operand be copied into an aligned one?  PyTorch's
# copy of a strided (row stride 4095, tight) matrix view into a contiguous 4095 x 4096-padded
# buffer, bf16 and fp32, timed with CUDA events the way bench/cublas.py times cuBLAS, beside a
# plain contiguous copy of the same bytes: the bound a faster pre-pass copy could reach.
P=$OUT/probe250.txt
python3 - > $P 2>&1 <<'PYEOF'
import torch
print(torch.__version__, torch.cuda.get_device_name(), flush=True)
def t(fn, n=50):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    ts=[]
    for _ in range(n):
        a=torch.cuda.Event(enable_timing=True); b=torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(20000); a.record(); fn(); b.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(b))
    ts.sort(); return ts[len(ts)//2]
for dt, name in ((torch.bfloat16,'bf16'), (torch.float32,'fp32')):
    for (R, C) in ((4095, 4095), (1000, 777), (3000, 777), (777, 3000)):
        flat = torch.randn(R * C + 8, device='cuda').to(dt)
        src = flat[1:1 + R * C].view(R, C)            # rows C apart, start 1 element in
        Cp = (C + 31) // 32 * 32
        dst = torch.zeros(R, Cp, device='cuda', dtype=dt)
        dv = dst[:, :C]
        ms = t(lambda: dv.copy_(src))
        nbytes = 2 * R * C * src.element_size()
        c1 = torch.empty(R * C, device='cuda', dtype=dt); c2 = torch.empty_like(c1)
        ms2 = t(lambda: c2.copy_(c1))
        print('%s %dx%d strided->padded %.4f ms %.0f GB/s | contiguous copy %.4f ms %.0f GB/s' % (name, R, C, ms, nbytes/ms/1e6, ms2, nbytes/ms2/1e6), flush=True)
PYEOF
cat $P
