#!/usr/bin/env python3
"""cuBLAS through PyTorch, timed the way clgemm times itself: the anchor beside clgemm's rows.

bench/run.py runs this file as a child process after its clgemm processes, so that PyTorch's
CUDA context and memory pool never sit beside an OpenCL measurement.  By hand:

    bench/cublas.py fp32:4096 tf32:4096 f16:8192 bf16:1000x3000x777

prints one JSON document on stdout.  Modes: fp32 (torch.backends.cuda.matmul.allow_tf32 =
False: the arithmetic of the SIMT kernels and of tf32x3's target), tf32 (allowed: the anchor of
TF32 rows), f16 and bf16 (16-bit inputs and output, fp32 accumulation: PyTorch's reduced-
precision split-K reductions are turned off, as no clgemm kernel reduces in 16 bits).  A job
may add ':TRANS' (NN, NT, TN, TT), ':bBATCH', ':rRUNS' (timed runs, at least RUNS) and ':cold'
(a 256 MiB tensor read before each timed run, outside its events, so that the operands come
from memory, as clgemm --cold-l2).  Each job: torch.matmul on uniform [-1, 1) data, warm-up
runs, then the timed runs enqueued back to back behind a GPU sleep, each between two CUDA
events, so that the host's launch time stays out of them as OpenCL's profiling events leave
it out of clgemm's; the median (of an even count, the mean of the middle two, as clgemm) and
the minimum.  GB/s counts the bytes of A, B and C once (beta is 0).  Without PyTorch or
without a CUDA device the document says why, with "measured": false, and the exit status is 3.
"""
import json
import os
import sys

MODES = ('fp32', 'tf32', 'f16', 'bf16')
RUNS = 20
WARMUP = 3
COLD_L2_BYTES = 256 << 20  # as clgemm --cold-l2: five times an H100's L2


def parse_job(text):
    """'mode:N' or 'mode:MxNxK', optionally ':TRANS' (NN, NT, TN, TT: each operand stored
    transposed, as clgemm --trans), ':bBATCH' (torch.bmm over a strided batch), ':rRUNS' and
    ':cold' -> (mode, M, N, K, trans, batch, runs, cold)."""
    mode, _, rest = text.partition(':')
    size, _, rest = rest.partition(':')
    trans, batch, runs, cold = 'NN', 1, RUNS, False
    for part in rest.split(':') if rest else []:
        if part in ('NN', 'NT', 'TN', 'TT'):
            trans = part
        elif part.startswith('b') and part[1:].isdigit() and int(part[1:]) >= 1:
            batch = int(part[1:])
        elif part.startswith('r') and part[1:].isdigit() and int(part[1:]) >= 1:
            runs = max(int(part[1:]), RUNS)
        elif part == 'cold':
            cold = True
        else:
            raise ValueError('bad part %r in %r' % (part, text))
    if mode not in MODES or not size:
        raise ValueError('bad job %r: expected MODE:N or MODE:MxNxK[:TRANS][:bBATCH][:rRUNS]'
                         '[:cold], MODE one of %s' % (text, ', '.join(MODES)))
    dims = [int(x) for x in size.split('x')]
    if len(dims) == 1:
        dims *= 3
    if len(dims) != 3 or min(dims) < 1:
        raise ValueError('bad size in %r' % text)
    return (mode, *dims, trans, batch, runs, cold)


def unavailable():
    """None when PyTorch sees a CUDA device, else the reason it cannot measure."""
    try:
        import torch
    except Exception as ex:  # ImportError, or a broken installation
        return 'no PyTorch/CUDA: import torch failed: %s' % ex
    if not torch.cuda.is_available():
        return 'no PyTorch/CUDA: torch %s sees no CUDA device' % torch.__version__
    return None


def median(sorted_times):
    n = len(sorted_times)
    return sorted_times[n // 2] if n % 2 else 0.5 * (sorted_times[n // 2 - 1] +
                                                     sorted_times[n // 2])


def evict(scratch):
    """Evicts the L2 as clgemm --cold-l2 does (host/cli/cold_l2.c): by reading the scratch
    buffer, which leaves clean lines; COLD_L2_WRITE=1 writes it instead, the eviction used
    before 2026-11-27, whose dirty lines the timed run then writes back."""
    if os.environ.get('COLD_L2_WRITE') == '1':
        scratch.zero_()
    else:
        scratch.max()  # a reduction: reads all of it, writes one value


def time_matmul(M, N, K, mode, runs=RUNS, trans='NN', batch=1, cold=False):
    """Median and minimum milliseconds of one M x N x K torch.matmul in `mode` (a batch:
    torch.bmm), and the number of runs; an operand stored transposed is passed as a
    transposed view, which cuBLAS reads in place."""
    import torch
    torch.backends.cuda.matmul.allow_tf32 = mode == 'tf32'
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    dtype = {'f16': torch.float16, 'bf16': torch.bfloat16}.get(mode, torch.float32)
    lead = (batch,) if batch > 1 else ()

    def operand(rows, cols, t):
        x = (torch.rand(*lead, *((cols, rows) if t else (rows, cols)), device='cuda') * 2 - 1)
        x = x.to(dtype)
        return x.transpose(-1, -2) if t else x
    a = operand(M, K, trans[0] == 'T')
    b = operand(K, N, trans[1] == 'T')
    scratch = torch.zeros(COLD_L2_BYTES // 4, dtype=torch.int32, device='cuda') if cold else None
    for _ in range(WARMUP):
        torch.matmul(a, b)
    torch.cuda.synchronize()
    runs = max(runs, RUNS)
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(runs)]
    # ~50 us of GPU time per run ahead of them: the host enqueues every run before the GPU
    # reaches the first, so no event waits for a launch.
    if hasattr(torch.cuda, '_sleep'):
        torch.cuda._sleep(int(runs * 1e5))
    for start, end in events:
        if scratch is not None:
            evict(scratch)
        start.record()
        torch.matmul(a, b)
        end.record()
    torch.cuda.synchronize()
    times = sorted(start.elapsed_time(end) for start, end in events)
    del a, b, scratch
    torch.cuda.empty_cache()
    return median(times), times[0], len(times)


def measure(jobs):
    """The cublas.json document for a list of (mode, M, N, K)."""
    reason = unavailable()
    if reason:
        return {'measured': False, 'reason': reason, 'rows': []}
    import torch
    doc = {'measured': True, 'tool': 'torch.matmul (cuBLAS), CUDA events',
           'torch': torch.__version__, 'cuda': torch.version.cuda,
           'device': torch.cuda.get_device_name(), 'warmup': WARMUP,
           'reduced_precision_reduction': False, 'rows': []}
    for mode, M, N, K, trans, batch, runs, cold in jobs:
        med, low, runs = time_matmul(M, N, K, mode, runs=runs, trans=trans, batch=batch,
                                     cold=cold)
        size = 2 if mode in ('f16', 'bf16') else 4  # of A, B and C alike (torch's C is 16-bit)
        row = {'mode': mode, 'M': M, 'N': N, 'K': K, 'ms_median': med, 'ms_min': low,
               'runs': runs, 'gflops': 2.0 * M * N * K * batch / med / 1e6,
               'gbps': (M * K + K * N + M * N) * size * batch / med / 1e6,
               'l2': 'cold' if cold else 'warm'}
        if cold:
            row['l2_eviction'] = 'write' if os.environ.get('COLD_L2_WRITE') == '1' else 'read'
        if trans != 'NN' or batch > 1:
            row.update(trans=trans, batch=batch)
        doc['rows'].append(row)
        sys.stderr.write('cublas: %-4s %dx%dx%d %s batch %d %s L2  %.4f ms  %.0f GFLOP/s  '
                         '%.0f GB/s\n' % (mode, M, N, K, trans, batch, row['l2'], med,
                                          row['gflops'], row['gbps']))
    return doc


def main(argv):
    if not argv or argv[0] in ('-h', '--help'):
        print(__doc__.strip())
        return 0 if argv else 2
    try:
        jobs = [parse_job(a) for a in argv]
    except ValueError as ex:
        sys.stderr.write('cublas: %s\n' % ex)
        return 2
    doc = measure(jobs)
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write('\n')
    return 0 if doc['measured'] else 3


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
