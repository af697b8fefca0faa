# Which kernels cuBLAS (PyTorch F.linear, X . W^T) launches per Llama-3-8B shape and precision,
# with their device times: names say the architecture path (sm90 wgmma / sm80 mma.sync),
# tile, split-K and any reduction kernel.
import torch
from torch.profiler import profile, ProfilerActivity
dev = "cuda"
print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name())
shapes = [(n, k) for (n, k) in [(6144, 4096), (4096, 4096), (28672, 4096), (4096, 14336)]]
for prec in ("fp32", "tf32", "f16", "bf16"):
    torch.backends.cuda.matmul.allow_tf32 = prec == "tf32"
    dt = {"f16": torch.float16, "bf16": torch.bfloat16}.get(prec, torch.float32)
    for M in (1, 16, 128, 4096):
        for (N, K) in shapes:
            X = torch.randn(M, K, device=dev, dtype=dt); W = torch.randn(N, K, device=dev, dtype=dt)
            for _ in range(3):
                torch.nn.functional.linear(X, W)
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as p:
                for _ in range(5):
                    torch.nn.functional.linear(X, W)
                torch.cuda.synchronize()
            ks = {}
            for e in p.events():
                if e.device_type.name == "CUDA":
                    ks.setdefault(e.name, []).append(e.device_time_total if hasattr(e, "device_time_total") else e.cuda_time_total)
            desc = "; ".join(f"{n[:150]} x{len(t)} {sum(t)/len(t):.1f}us" for n, t in ks.items())
            print(f"{prec} {M}x{N}x{K}: {desc}", flush=True)
