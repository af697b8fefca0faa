#!/usr/bin/env python3
"""TF32 error of clgemm and of cuBLAS on the same inputs, with clgemm's error metric.

A and B uniform in [-1, 1] (seeded) are written as raw float32, clgemm runs each named
algorithm on them through bench/probes/gemm_files (libclgemm), PyTorch runs cuBLAS TF32 and
fp32, and the error of every C against a float64 reference on the GPU is
    max |c - ref| / (sum_k |a_ik| |b_kj|)
the metric of clgemm's own check (alpha = 1, beta = 0).  Prints a table and writes JSON.

usage: bench/tf32_error.py --probe BUILD/bench/gemm_files [--sizes 4096,512x512x64,3x4097x5]
                           [--algos tensor_core,wgmma_tma:PACKA=0,mma] [--out FILE.json]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--probe', required=True)
    ap.add_argument('--device', default='nvidia')
    ap.add_argument('--sizes', default='4096,512x512x64,3x4097x5,96x96x1')
    ap.add_argument('--algos', default='tensor_core,wgmma_tma:PACKA=0,mma')
    ap.add_argument('--seed', type=int, default=7)
    ap.add_argument('--out')
    args = ap.parse_args()
    try:
        import numpy as np
        import torch
        assert torch.cuda.is_available()
    except (ImportError, AssertionError):
        sys.exit('tf32_error: needs PyTorch with a CUDA GPU (cuBLAS is the comparison)')
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes.split(','):
            M, N, K = [int(x) for x in size.split('x')] if 'x' in size else [int(size)] * 3
            g = np.random.default_rng(args.seed)
            a = g.uniform(-1, 1, (M, K)).astype(np.float32)
            b = g.uniform(-1, 1, (K, N)).astype(np.float32)
            pa, pb = os.path.join(tmp, 'a.f32'), os.path.join(tmp, 'b.f32')
            a.tofile(pa)
            b.tofile(pb)
            A = torch.from_numpy(a).cuda()
            B = torch.from_numpy(b).cuda()
            ref = A.double() @ B.double()
            scale = A.double().abs() @ B.double().abs()

            def error(c):
                return ((c.double() - ref).abs() / scale).max().item()
            rows = {}
            for tf32 in (True, False):
                torch.backends.cuda.matmul.allow_tf32 = tf32
                rows['cuBLAS ' + ('TF32' if tf32 else 'fp32')] = error(A @ B)
            torch.backends.cuda.matmul.allow_tf32 = False
            for algo in args.algos.split(','):
                pc = os.path.join(tmp, 'c.f32')
                p = subprocess.run([args.probe, args.device, algo, str(M), str(N), str(K), pa,
                                    pb, pc], capture_output=True, text=True)
                if p.returncode != 0:
                    rows[algo] = None
                    print('  %s: %s' % (algo, (p.stderr or p.stdout).strip()), file=sys.stderr)
                    continue
                print('  ' + p.stdout.strip(), file=sys.stderr)
                c = torch.from_numpy(np.fromfile(pc, dtype=np.float32).reshape(M, N)).cuda()
                rows[algo] = error(c)
            results.append({'M': M, 'N': N, 'K': K, 'errors': rows,
                            'device': torch.cuda.get_device_name()})
            print('%-14s %s' % ('%dx%dx%d' % (M, N, K), '  '.join(
                '%s %.2e' % (k, v) if v is not None else '%s -' % k for k, v in rows.items())))
    if args.out:
        with open(args.out, 'w') as f:
            json.dump({'metric': 'max |c-ref| / sum_k |a||b|, uniform [-1,1] inputs',
                       'seed': args.seed, 'results': results}, f, indent=1)


if __name__ == '__main__':
    main()
