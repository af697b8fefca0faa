"""The llama preset's part of docs/results.md (issue #17), and its plot; bench/render.py calls
it.  Ours against cuBLAS on Llama-3-8B's projections (X·Wᵀ, W stored N × K) in five
precisions: per shape GFLOP/s (GB/s over the bytes of A, B and C where M <= 16, where the
weight's bytes decide the time), the ratio ours/cuBLAS (cuBLAS's median time over ours), the
cold-L2 figures, the geometric mean and the worst ratio per precision, and the targets of the
issue.  The newest llama run of a device is "after"; the newest older one whose folder name
says "before" (else the one just older) is "before".
"""
import math
import os
import re
import sys

from render_load import steady

# (label, data type of the clgemm run, its algorithm row, the cuBLAS mode it is compared with)
PRECISIONS = [('fp32 (auto)', 'f32', 'auto', 'fp32'),
              ('TF32', 'f32', 'tensor_core', 'tf32'),
              ('tf32x3', 'f32', 'tensor_core_tf32x3', 'fp32'),
              ('f16', 'f16', 'tensor_core', 'f16'),
              ('bf16', 'bf16', 'tensor_core', 'bf16')]
PROJECTIONS = {(6144, 4096): 'QKV', (4096, 4096): 'O', (28672, 4096): 'gate+up',
               (4096, 14336): 'down'}
BANDWIDTH_M = 16  # at or below: GB/s, and a cold-L2 figure
# Per device name: L2 bytes and the memory bandwidth of the data sheet (GB/s); the issue's
# bandwidth target is 80 % of it where the weight does not fit in the L2.
DEVICES = {'h100': (50 << 20, 3350.0), 'h200': (50 << 20, 4800.0)}
TARGET_GEOMEAN, TARGET_WORST, TARGET_PEAK = 1.0, 0.8, 0.8


def spec(device):
    return next((v for k, v in DEVICES.items() if k in device.lower()), (None, None))


def shapes(run):
    """The run's (M, N, K), projections in the issue's order, then M."""
    have = {(r['M'], r['N'], r['K']) for r in run.rows}
    order = list(PROJECTIONS)
    return sorted(have, key=lambda s: (order.index(s[1:]) if s[1:] in order else 99, s))


def ours(run, prec, shape, l2):
    _, dtype, algo, _ = prec
    for r in run.rows:
        if ((r['M'], r['N'], r['K']) == shape and r['dtype'] == dtype and
                r['algorithm'] == algo and (r.get('l2') or 'warm') == l2 and
                r['status'] == 'ok' and r.get('gflops')):
            return r
    return None


def theirs(run, prec, shape, l2):
    for r in (run.cublas_doc or {}).get('rows', []):
        if ((r['M'], r['N'], r['K']) == shape and r['mode'] == prec[3] and
                r.get('trans', 'NN') == 'NT' and r.get('l2', 'warm') == l2):
            return r if steady(r) else None
    return None


def ratio_of(run, prec, shape, l2='warm'):
    a, b = ours(run, prec, shape, l2), theirs(run, prec, shape, l2)
    return a['gflops'] / b['gflops'] if a and b and b.get('gflops') else None


def weight_beyond_l2(run, prec, shape):
    l2, _ = spec(run.device)
    return l2 is not None and shape[0] <= BANDWIDTH_M and \
        shape[1] * shape[2] * (2 if prec[1] in ('f16', 'bf16') else 4) > l2


def summary(run, prec):
    """(geometric mean of the warm ratios, how many, worst ratio, its shape, worst fraction of
    the peak bandwidth over the shapes whose weight exceeds the L2, cold figures first)."""
    rs = [(ratio_of(run, prec, s), s) for s in shapes(run)]
    rs = [(x, s) for x, s in rs if x]
    gm = math.exp(sum(math.log(x) for x, _ in rs) / len(rs)) if rs else None
    worst = min(rs) if rs else (None, None)
    _, peak = spec(run.device)
    fracs = []
    for s in shapes(run):
        if weight_beyond_l2(run, prec, s):
            r = ours(run, prec, s, 'cold') or ours(run, prec, s, 'warm')
            fracs.append((r['gbps'] / peak, s) if r and r.get('gbps') and peak else (0.0, s))
    return gm, len(rs), worst[0], worst[1], min(fracs) if fracs else (None, None)


def fmt(x):
    return '{:,.0f}'.format(x).replace(',', ' ') if x else '–'


def rt(x):
    return '%.2f' % x if x else '–'


def shape_text(s):
    return '%d×%d×%d' % s


def chose(r):
    m = re.search(r'chose (\w+)', (r or {}).get('note') or '')
    return ' → ' + m.group(1) if m else ''


def precision_table(run, prec, before):
    bw = lambda s: s[0] <= BANDWIDTH_M  # noqa: E731
    _, peak = spec(run.device)
    head = ('| M×N×K | projection | unit | ours | cuBLAS | ours/cuBLAS | cold: ours | cuBLAS '
            '| ours/cuBLAS |' + (' of peak BW |' if peak else '') +
            (' before |' if before else ''))
    lines = [head, '|---|---|---|' + '---:|' * (6 + bool(peak) + bool(before))]
    for s in shapes(run):
        key = 'gbps' if bw(s) else 'gflops'
        cells = []
        for l2 in ('warm', 'cold'):
            a, b = ours(run, prec, s, l2), theirs(run, prec, s, l2)
            if l2 == 'cold' and not bw(s):
                cells += ['', '', '']
                continue
            cells += [fmt(a and a.get(key)), fmt(b and b.get(key)), rt(ratio_of(run, prec, s, l2))]
        if peak:
            r = ours(run, prec, s, 'cold') or ours(run, prec, s, 'warm')
            frac = r['gbps'] / peak if bw(s) and r and r.get('gbps') else None
            mark = ' (weight > L2)' if weight_beyond_l2(run, prec, s) else ''
            cells.append('%.0f%%%s' % (100 * frac, mark) if frac else '')
        if before:
            cells.append(rt(ratio_of(before, prec, s)))
        label = (PROJECTIONS.get(s[1:], '') + (chose(ours(run, prec, s, 'warm'))
                                              if prec[2] == 'auto' else '')).strip()
        lines.append('| %s | %s | %s | %s |' % (shape_text(s), label,
                                               'GB/s' if bw(s) else 'GFLOP/s', ' | '.join(cells)))
    return lines


def summary_table(run, before):
    _, peak = spec(run.device)
    lines = ['| precision | cuBLAS | geomean ours/cuBLAS | worst | at | M ≤ %d, weight > L2: '
             'worst of peak BW |%s' % (BANDWIDTH_M, ' before: geomean | before: worst |'
                                        if before else ''),
             '|---|---|---:|---:|---|---:|' + ('---:|---:|' if before else '')]
    for prec in PRECISIONS:
        gm, n, worst, at, (frac, _) = summary(run, prec)
        if not n:
            continue
        count = '' if n == len(shapes(run)) else ' (%d shapes)' % n
        row = '| %s | %s | %s%s | %s | %s | %s |' % (
            prec[0], prec[3], rt(gm), count, rt(worst), shape_text(at) if at else '–',
            '%.0f%% of %.2f TB/s' % (100 * frac, peak / 1000) if frac is not None else '–')
        if before:
            bgm, _, bworst, _, _ = summary(before, prec)
            row += ' %s | %s |' % (rt(bgm), rt(bworst))
        lines.append(row)
    return lines


def pick(runs):
    """(after, before or None) per device, device-name order."""
    out = []
    for dev in sorted({r.device for r in runs if 'llama' in r.presets}):
        mine = sorted((r for r in runs if 'llama' in r.presets and r.device == dev and r.rows),
                      key=lambda r: r.order())
        if not mine:
            continue
        older = mine[:-1]
        marked = [r for r in older if 'before' in os.path.basename(r.path)]
        out.append((mine[-1], (marked or older or [None])[-1]))
    return out


def runs_text(run):
    counts = [r['runs'] for r in run.rows if r.get('runs') and r['algorithm'] != 'clblast'] + \
        [r['runs'] for r in (run.cublas_doc or {}).get('rows', []) if r.get('runs')]
    return ' · timed runs per figure: %d–%d' % (min(counts), max(counts)) if counts else ''


def plot_name(run):
    return 'llama_%s.png' % re.sub(r'[^a-z0-9]+', '-', run.device.lower()).strip('-')


def section(runs, root_rel, docs_dir, caption, used):
    L = ['## Llama-3-8B projections (issue #17)', '',
         "Llama-3-8B's projections as a PyTorch `Linear` computes them, X·Wᵀ with W stored "
         'N × K (`--trans NT`): QKV 6144×4096, O 4096×4096, gate+up 28672×4096, down '
         '4096×14336, at M = 1, 16, 128 and 4096 tokens (`bench/run.py llama`).  Both sides '
         'are timed alike: warm (operands in the 50 MiB L2 where they fit), runs back to back, '
         'the median of at least 20 (the preset: 100 at M ≤ 128); "cold" evicts the L2 before '
         "each run (`clgemm --cold-l2`, cublas.py `:cold`).  ours/cuBLAS is cuBLAS's median "
         'time over ours.  GB/s counts the bytes of A, B and C once as each side stores them '
         "(cuBLAS's f16/bf16 C is 16-bit; ours too where the case's command has `--out`, "
         'as the preset has since llama-tuned-4; fp32 in the runs before).  Issue #17\'s targets per precision: '
         'geomean ≥ %.1f, no shape below %.1f; at M ≤ %d with a weight larger than the L2, '
         '≥ %.0f%% of the memory bandwidth (H100: 3.35 TB/s).'
         % (TARGET_GEOMEAN, TARGET_WORST, BANDWIDTH_M, 100 * TARGET_PEAK), '']
    chosen = pick(runs)
    if not chosen:
        return L + ['No run yet.', '']
    for after, before in chosen:
        used.update(r.path for r in (after, before) if r)
        L += [caption(after, root_rel) + runs_text(after), '']
        if before:
            L += ['Before: ' + caption(before, root_rel) + runs_text(before), '']
        L += summary_table(after, before) + ['']
        if os.path.exists(os.path.join(docs_dir, plot_name(after))):
            L += ['![ours/cuBLAS per shape and precision, %s](%s)' % (after.device,
                                                                      plot_name(after)), '']
        for prec in PRECISIONS:
            if summary(after, prec)[1]:
                L += ['**%s** against cuBLAS %s' % (prec[0], prec[3]), '']
                L += precision_table(after, prec, before) + ['']
    return L


def plot(runs, docs_dir):
    """ours/cuBLAS per shape, a column of markers per precision (before: hollow, joined to
    after by a thin line), lines at 1.0 and 0.8."""
    chosen = pick(runs)
    if not chosen:
        return
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FixedLocator, NullLocator
    except ImportError:
        sys.stderr.write('render.py: no matplotlib: the llama plot is not drawn\n')
        return
    for after, before in chosen:
        ss = shapes(after)
        fig, ax = plt.subplots(figsize=(13, 5.5))
        for i, prec in enumerate(PRECISIONS):
            dx = (i - 2) * 0.14
            color = 'C%d' % i
            now = [(j + dx, ratio_of(after, prec, s)) for j, s in enumerate(ss)]
            was = [(j + dx, ratio_of(before, prec, s) if before else None)
                   for j, s in enumerate(ss)]
            for (x, a), (_, b) in zip(now, was):
                if a and b:
                    ax.plot([x, x], [b, a], color=color, lw=0.8, alpha=0.6)
            pts = [p for p in now if p[1]]
            if pts:
                ax.plot(*zip(*pts), 'o', color=color, label=prec[0])
            pts = [p for p in was if p[1]]
            if pts:
                ax.plot(*zip(*pts), 'o', mfc='none', color=color, alpha=0.7,
                        label=prec[0] + ' before')
        for y, ls in ((1.0, '-'), (TARGET_WORST, '--')):
            ax.axhline(y, color='black', lw=1, ls=ls)
        # M under each column; N×K and the projection once per group, above it
        for j, s in enumerate(ss):
            if j and s[1:] != ss[j - 1][1:]:
                ax.axvline(j - 0.5, color='gray', lw=0.5)
            if not j or s[1:] != ss[j - 1][1:]:
                n = sum(1 for x in ss if x[1:] == s[1:])
                ax.text(j + (n - 1) / 2, 1.01, '%s  N×K = %d×%d' % (
                    PROJECTIONS.get(s[1:], ''), s[1], s[2]), ha='center', va='bottom',
                    fontsize=8, transform=ax.get_xaxis_transform())
        ax.set_xticks(range(len(ss)))
        ax.set_xticklabels(['M = %d' % s[0] for s in ss], fontsize=8)
        ax.set_yscale('log')
        ticks = [t for t in (0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1, 1.25, 1.5, 2, 3, 5)]
        ax.yaxis.set_major_locator(FixedLocator(ticks))
        ax.yaxis.set_minor_locator(NullLocator())
        ax.set_yticklabels(['%g' % t for t in ticks])
        ax.set(ylabel='ours / cuBLAS (warm; higher is better)',
               title='%s, %s: clgemm / cuBLAS on Llama-3-8B projections (X·Wᵀ)\n' %
               (after.device, after.date))
        ax.grid(True, axis='y', alpha=0.3)
        ax.legend(fontsize=7, ncol=5 if before else 5, loc='best')
        fig.tight_layout()
        fig.savefig(os.path.join(docs_dir, plot_name(after)), dpi=100,
                    metadata={'Software': None})
        plt.close(fig)
