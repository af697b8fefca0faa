#!/usr/bin/env python3
"""PNG plots from a bench/sweep.py JSON: GFLOP/s against size per algorithm (CLBlast and
cuBLAS as lines), and the progression at one size as bars.
usage: bench/plot.py SWEEP.json [--device SUBSTRING] [--bar-size 4096]"""
import argparse
import json
import os

import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('sweep')
    ap.add_argument('--device', default='')
    ap.add_argument('--bar-size', type=int, default=4096)
    args = ap.parse_args()
    rows = [r for r in json.load(open(args.sweep))['rows']
            if args.device.lower() in r['device'].lower() and r['gflops']
            and r['status'] in ('ok', 'reference')]
    device = rows[0]['device'] if rows else '?'
    stem = os.path.splitext(args.sweep)[0]

    square = [r for r in rows if r['M'] == r['N'] == r['K']]
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for algo in dict.fromkeys(r['algorithm'] for r in square):
        pts = sorted((r['M'], r['gflops']) for r in square if r['algorithm'] == algo)
        style = dict(lw=3, color='black') if algo == 'clblast' else \
            dict(lw=2, ls='--', color='gray') if algo.startswith('cublas') else dict(marker='o')
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=algo, **style)
    ax.set_xscale('log', base=2)
    ax.set_xlabel('M = N = K')
    ax.set_ylabel('GFLOP/s (fp32)')
    ax.set_title('clgemm on %s (%s)' % (device, rows[0]['date'] if rows else ''))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(stem + '_sizes.png', dpi=110)

    at = [r for r in square if r['M'] == args.bar_size]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    names = [r['algorithm'] for r in at]
    colors = ['black' if n == 'clblast' else 'gray' if n.startswith('cublas') else 'tab:blue'
              for n in names]
    ax.bar(range(len(at)), [r['gflops'] for r in at], color=colors)
    ax.set_xticks(range(len(at)))
    ax.set_xticklabels(names, rotation=30, ha='right', fontsize=8)
    ax.set_ylabel('GFLOP/s (fp32)')
    ax.set_title('The progression at %d^3 on %s' % (args.bar_size, device))
    fig.tight_layout()
    fig.savefig(stem + '_progression.png', dpi=110)
    print(stem + '_sizes.png', stem + '_progression.png')


if __name__ == '__main__':
    main()
