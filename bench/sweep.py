#!/usr/bin/env python3
"""Sizes x algorithms x devices through clgemm, into one CSV and one JSON (device, driver,
date and parameters in every row), with cuBLAS through PyTorch as an extra anchor when
PyTorch and a CUDA GPU are present.  Progress on stderr.

usage: bench/sweep.py [--clgemm build/clgemm] [--devices nvidia,pocl]
                      [--sizes 256,512,1024,2048,4096,8192,1000,3000,4095,1000x3000x777]
                      [--algos all] [--out bench/results/NAME]   (writes NAME.csv, NAME.json)
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

FIELDS = ['date', 'device', 'platform', 'driver', 'M', 'N', 'K', 'algorithm', 'status',
          'ms_median', 'ms_min', 'runs', 'gflops', 'vs_clblast', 'error', 'params', 'note']


def cublas_rows(sizes, date):
    try:
        import torch
        if not torch.cuda.is_available():
            return []
    except ImportError:
        return []
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from cublas_anchor import time_matmul
    rows = []
    for size in sizes:
        dims = [int(x) for x in size.split('x')] if 'x' in size else [int(size)] * 3
        M, N, K = dims
        ms, ms_min = time_matmul(M, N, K, 'fp32', runs=10)
        rows.append({'date': date, 'device': torch.cuda.get_device_name(), 'platform': 'CUDA',
                     'driver': 'torch ' + torch.__version__, 'M': M, 'N': N, 'K': K,
                     'algorithm': 'cublas (PyTorch, fp32)', 'status': 'reference',
                     'ms_median': ms, 'ms_min': ms_min, 'runs': 10,
                     'gflops': 2.0 * M * N * K / ms / 1e6, 'vs_clblast': None, 'error': None,
                     'params': 'TF32 off', 'note': ''})
        sys.stderr.write('sweep: cuBLAS %s %.0f GFLOP/s\n' % (size, rows[-1]['gflops']))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--clgemm', default='build/clgemm')
    ap.add_argument('--devices', default='')
    ap.add_argument('--sizes', default='256,512,1024,2048,4096,8192,1000,3000,4095,1000x3000x777')
    ap.add_argument('--algos', default='all')
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    date = time.strftime('%Y-%m-%d')
    rows = []
    for device in args.devices.split(','):
        for size in args.sizes.split(','):
            cmd = [args.clgemm, '--size', size, '--format', 'json', '--quiet']
            if device:
                cmd += ['--device', device]
            for a in args.algos.split(','):
                cmd += ['--algo', a]
            t0 = time.time()
            p = subprocess.run(cmd, capture_output=True, text=True)
            try:
                res = json.loads(p.stdout)['results'][0]
            except (ValueError, KeyError, IndexError):
                sys.stderr.write('sweep: %s %s failed: %s\n' % (device, size, p.stderr[-300:]))
                continue
            for r in res['rows']:
                rows.append({'date': date, 'device': res['device'], 'platform': res['platform'],
                             'driver': res['driver'], 'M': res['M'], 'N': res['N'],
                             'K': res['K'], **{k: r.get(k) for k in FIELDS[7:]}})
            best = max((r for r in res['rows'] if r['gflops'] and r['algorithm'] != 'clblast'
                        and r['status'] == 'ok'), key=lambda r: r['gflops'], default=None)
            base = next((r for r in res['rows'] if r['algorithm'] == 'clblast'), None)
            sys.stderr.write('sweep: %s %s: best %s %.0f GFLOP/s, CLBlast %s (%.0f s)%s\n' % (
                res['device'], size, best['algorithm'] if best else '-',
                best['gflops'] if best else 0,
                '%.0f' % base['gflops'] if base and base['gflops'] else '-', time.time() - t0,
                '' if p.returncode == 0 else ' EXIT %d' % p.returncode))
    rows += cublas_rows(args.sizes.split(','), date)
    with open(args.out + '.csv', 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    with open(args.out + '.json', 'w') as f:
        json.dump({'rows': rows}, f, indent=1)
    sys.stderr.write('sweep: %d rows -> %s.csv, %s.json\n' % (len(rows), args.out, args.out))


if __name__ == '__main__':
    main()
