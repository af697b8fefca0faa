# Does cuBLAS's TF32 (PyTorch allow_tf32) round fp32 operands to nearest or truncate them?
# One k column carries 1 + f * 2^-10 (f = 0.75 rounds up to nearest, truncates down); the other
# operand carries 1 there and every other k is 0, so C = tf32(x) exactly.
import torch, sys
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
dev = "cuda"
def check(M, N, K, side, form):
    X = torch.zeros(M, K, device=dev); W = torch.zeros(N, K, device=dev)
    v = 1.0 + 0.75 * 2.0**-10
    if side == "A":
        X[:, 0] = v; X[1::2, 0] = -v; W[:, 0] = 1.0
    else:
        X[:, 0] = 1.0; W[:, 0] = v; W[1::2, 0] = -v
    if form == "linear":
        C = torch.nn.functional.linear(X, W)
    else:  # NN: X @ (W^T stored K x N)
        C = X @ W.t().contiguous()
    torch.cuda.synchronize()
    vals = sorted(set(abs(float(c)) for c in C.flatten()[:4096].tolist()))
    up, down = 1.0 + 2.0**-10, 1.0
    kind = "round-nearest" if vals == [up] else "truncate" if vals == [down] else "exact-fp32" if vals == [v] else "mixed %s" % vals[:4]
    print(f"{M}x{N}x{K} {form:6s} operand {side} ({'X' if side=='A' else 'W'}): {kind}")
print(torch.__version__, torch.version.cuda, torch.cuda.get_device_name())
for (M, N, K) in [(128, 4096, 4096), (16, 4096, 4096), (128, 4096, 14336), (512, 4096, 4096), (4096, 4096, 4096), (1, 4096, 4096)]:
    for form in ("linear", "nn"):
        for side in ("A", "B"):
            check(M, N, K, side, form)
