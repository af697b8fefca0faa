#!/usr/bin/env python3
"""Renders bench/results/ into docs/results.md and the README's generated blocks.

usage: bench/render.py [--results bench/results] [--out docs/results.md] [--readme README.md]
                       [--readme-device SUBSTRING] [--check] [--plots DIR]
       bench/render.py --table FILE.json...     (a compact table of clgemm JSON, for logs)

Reads every run folder that bench/run.py wrote (meta.json, the clgemm --format json files,
cublas.json; bench/render_load.py) and the runs written before it existed that the old README quoted (LEGACY
in render_load.py: clgemm JSON, sweep JSON and cublas.txt).  For each preset and device the newest run
fills the main tables: progression, tensor cores (ours, CLBlast, cuBLAS and the ratio to it),
sizes, the quick-start job; then one line per older folder.  The README's progression table
and tensor-core headline are rewritten between their markers from the same runs:
    <!-- results:progression:begin --> ... <!-- results:progression:end -->
    <!-- results:tensor:begin --> ... <!-- results:tensor:end -->
    <!-- results:operands:begin --> ... <!-- results:operands:end -->  (layouts + epilogues)
--check rewrites nothing and exits 1 when a file is not what it would write.
--plots DIR also draws GFLOP/s against size and the progression as PNGs (needs matplotlib).
The llama preset's section and its plot (docs/llama_<device>.png, redrawn unless --check; without
matplotlib the plot is skipped with a message) come from bench/render_llama.py.
"""
import argparse
import os
import re
import sys

import render_llama
from render_load import clgemm_rows, load_json, load_runs, newest, ok, sweep_rows
from render_tables import (caption, cublas_mode, epilogues_table, find, gf, layouts_table,
                           operands_block, pct, progression_table, quick_table, ratio,
                           size_text, sizes_table, tensor_sizes, tensor_table)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---- the index of folders --------------------------------------------------------------

def readme_entries(folder):
    """'name/' -> first sentence, from a README.txt that describes its sub-folders."""
    out, cur = {}, None
    path = os.path.join(folder, 'README.txt')
    if not os.path.exists(path):
        return out
    with open(path, errors='replace') as f:
        for line in f:
            m = re.match(r'^(\S+/)\s+(.*)', line)
            if m:
                cur = m.group(1)
                out[cur] = m.group(2).strip()
            elif cur and line.startswith(' ') and line.strip():
                out[cur] += ' ' + line.strip()
            else:
                cur = None
    return out


def first_sentence(text, limit=220):
    text = re.sub(r'\s+', ' ', text).strip()
    m = re.search(r'(.+?\.)(\s|$)', text)
    s = m.group(1) if m else text
    return s if len(s) <= limit else s[:limit - 1].rsplit(' ', 1)[0] + ' …'


def contents(folder):
    """What a folder's own files measured: shapes, data types, algorithms, other files."""
    shapes, dtypes, algos, devices, other = set(), set(), [], [], []
    for path in sorted(os.listdir(folder)):
        full = os.path.join(folder, path)
        if os.path.isdir(full):
            continue
        doc = load_json(full) if path.endswith('.json') else None
        rows = []
        if isinstance(doc, dict) and 'results' in doc:
            rows = clgemm_rows(doc, path)
        elif isinstance(doc, dict) and 'rows' in doc:
            rows = sweep_rows(doc, path)[0]
        elif path not in ('README.txt', 'meta.json'):
            other.append(path)
        for r in rows:
            if r['device'] not in devices:
                devices.append(r['device'])
            shapes.add((r['M'], r['N'], r['K']))
            dtypes.add(r.get('dtype') or 'f32')
            base = r['algorithm'].split(':')[0]
            if base not in algos and base != 'clblast':
                algos.append(base)
    bits = []
    if shapes:
        sq = sorted(s for s in shapes if s[0] == s[1] == s[2])
        odd = sorted(s for s in shapes if not s[0] == s[1] == s[2])
        bits.append(', '.join(size_text(*s) for s in sq + odd))
        bits.append('/'.join(sorted(dtypes, key=['f32', 'f16', 'bf16'].index
                                    if dtypes <= {'f32', 'f16', 'bf16'} else str)))
        bits.append(', '.join(algos[:6]) + (' …' if len(algos) > 6 else ''))
    if other:
        bits.append('also ' + ', '.join(other[:5]) + (' …' if len(other) > 5 else ''))
    return ', '.join(sorted(devices)), '; '.join(bits)


def index_lines(root, root_rel, used):
    lines = []
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        rel = os.path.relpath(folder, root)
        if rel == '.' or not files:
            continue
        parent = readme_entries(os.path.dirname(folder))
        own = os.path.join(folder, 'README.txt')
        what = parent.get(os.path.basename(folder) + '/')
        if not what and os.path.exists(own):
            with open(own, errors='replace') as f:
                what = f.read()
        meta = load_json(os.path.join(folder, 'meta.json'))
        if meta and not what:
            what = 'bench/run.py %s' % meta.get('preset')
        device, measured = contents(folder)
        tag = ' (in the tables above)' if rel in used else ''
        text = '; '.join(x for x in (first_sentence(what) if what else '', measured) if x)
        lines.append('- [%s/](%s/%s/)%s — %s%s' % (rel, root_rel, rel, tag,
                                                  (device + ': ') if device else '', text))
    return lines


# ---- documents -------------------------------------------------------------------------

def results_md(runs, root, out_path):
    root_rel = os.path.relpath(root, os.path.dirname(os.path.abspath(out_path)))
    L = ['# Measured results', '',
         '<!-- Generated by bench/render.py from %s; do not edit by hand. -->' %
         os.path.relpath(root, ROOT), '',
         'Generated by `bench/render.py` from the JSON under [bench/results/](%s/); '
         'measure again with `bench/run.py PRESET` (see [bench/run.py](%s) and '
         '[benchmarking.md](benchmarking.md)), then run `bench/render.py`.  '
         'For each table and device, the newest run of that preset is '
         'shown.  Every clgemm row was verified in the same process (see '
         '[precision.md](precision.md)) and timed with OpenCL profiling events; CLBlast ran on '
         'the same buffers in the same process; cuBLAS ran through PyTorch in the same command, '
         'timed with CUDA events.  GFLOP/s = 2·M·N·K / median time.' %
         (root_rel, os.path.relpath(os.path.join(ROOT, 'bench', 'run.py'),
                                    os.path.dirname(os.path.abspath(out_path)))), '']
    used = set()
    sections = [
        ('Progression', 'progression', progression_table,
         'Steps 1–7 in fp32 (`bench/run.py progression`).  Older runs used the tuned '
         'parameters of their session for steps 6 and 7.'),
        ('Tensor cores', 'tensor', tensor_table,
         'Matrix-unit rows on fp32 data (TF32, tf32x3) and on 16-bit data (`--dtype f16`, '
         '`bf16`) (`bench/run.py tensor`).  "of cuBLAS" compares with cuBLAS in the same '
         'arithmetic (tf32x3 with cuBLAS fp32, the accuracy it matches).  Names are those of '
         'the run: before the restructuring, `tensor_core` on fp32 data ran '
         '`wgmma_tma_packed` and `tensor_core_tf32x3` ran `wgmma_tma_packed_tf32x3`.'),
        ('The general call: layouts, leading dimensions, batches', 'layouts', layouts_table,
         'Every layout and transpose at 4096³ and 8192³ (runs before 2026-11-25: 4096³ alone, '
         'no f16), tight leading dimensions (`--ld-pad 0`) beside '
         'the padded default, and attention-sized strided batches (`bench/run.py layouts`); '
         'cuBLAS runs the same transposes (PyTorch views) and batches (`torch.bmm`); CLBlast '
         'the same call in fp32 (`CLBlastSgemm`, `CLBlastSgemmStridedBatched`).'),
        ('Fused epilogues and 16-bit C', 'epilogues', epilogues_table,
         'The same GEMM plain, with `--epilogue bias_gelu` fused into its store, and with a '
         '16-bit C (`--out bf16`, `f16`) (`bench/run.py epilogues`); "time" is the time '
         'relative to the plain GEMM of the same row (+: slower).  cuBLAS runs the plain '
         'GEMM.'),
        ('Sizes', 'sizes', sizes_table,
         'The fastest fp32 row at each size (`bench/run.py sizes`).'),
        ('Quick-start job', 'quick', quick_table,
         '`build/clgemm` with no `--algo`: every algorithm at the default size '
         '(`bench/run.py quick`).'),
    ]
    for title, preset, table, text in sections:
        L += ['## %s' % title, '', text, '']
        chosen = newest(runs, preset)
        if not chosen:
            L += ['No run yet.', '']
        for run in chosen:
            used.add(run.path)
            shape = ''
            if preset == 'quick' and run.rows:
                shape = ' · %s' % size_text(run.rows[0]['M'], run.rows[0]['N'],
                                            run.rows[0]['K'])
            L += [caption(run, root_rel) + shape, ''] + table(run) + ['']
    L += render_llama.section(runs, root_rel, os.path.dirname(os.path.abspath(out_path)),
                              caption, used)
    L += ['## Older result folders', '',
          'Every folder under bench/results/, with what it measured (from its README.txt and '
          'its files).  Figures quoted in docs/ point here.', '']
    L += index_lines(root, root_rel, {u if os.path.isdir(os.path.join(root, u))
                                      else os.path.dirname(u) for u in used})
    return '\n'.join(L) + '\n'


def pick(runs, preset, want):
    chosen = newest(runs, preset)
    if want:
        chosen = [r for r in chosen if want.lower() in r.device.lower()] or chosen
    return max(chosen, key=lambda r: (r.date, -sorted(x.device for x in chosen).index(
        r.device))) if chosen else None


def operands_runs(runs, want):
    """The README's layouts and epilogues runs: one device in one table, the epilogues of the
    device whose layouts it shows (where it has any)."""
    lrun = pick(runs, 'layouts', want)
    return lrun, pick(runs, 'epilogues', lrun.device if lrun else want)


def readme_blocks(runs, root, readme, want):
    rel = os.path.relpath(root, os.path.dirname(os.path.abspath(readme)))
    docs = os.path.relpath(os.path.join(ROOT, 'docs', 'results.md'),
                           os.path.dirname(os.path.abspath(readme)))
    blocks = {}

    def legacy(run):
        return '' if run.meta else ' (measured before bench/run.py existed, rows as named then)'
    run = pick(runs, 'progression', want)
    if run:
        blocks['progression'] = [
            'Generated by `bench/render.py` (do not edit): %s, driver %s, %s, fp32; '
            'data: [%s](%s/%s)%s; every table: [%s](%s).' % (
                run.device, run.driver, run.date, run.path, rel, run.path, legacy(run),
                os.path.basename(docs), docs), ''] + progression_table(run)
    run = pick(runs, 'tensor', want)
    if run:
        sizes = tensor_sizes(run)
        lines = ['Generated by `bench/render.py` (do not edit): %s, driver %s, %s; data: '
                 '[%s](%s/%s)%s; the lesson rows and errors: [%s](%s#tensor-cores).' % (
                     run.device, run.driver, run.date, run.path, rel, run.path, legacy(run),
                     os.path.basename(docs), docs), '',
                 '| matrix units, TFLOP/s |' + ''.join(' %s³ | of cuBLAS |' % s for s in sizes),
                 '|---|' + '---:|---:|' * len(sizes)]
        for label, algo, dtype in (('`tensor_core`, fp32 data (TF32)', 'tensor_core', 'f32'),
                                   ('`tensor_core --dtype f16`', 'tensor_core', 'f16'),
                                   ('`tensor_core --dtype bf16`', 'tensor_core', 'bf16'),
                                   ('`tensor_core_tf32x3` (fp32 accuracy)',
                                    'tensor_core_tf32x3', 'f32')):
            cells = [find(run.rows, algo, s, dtype) for s in sizes]
            if not any(cells):
                continue
            first = next(c for c in cells if c)
            mode = cublas_mode(dtype, first.get('precision'))
            row = '| %s |' % label
            for s, c in zip(sizes, cells):
                ref = run.cublas.get((mode, int(s), int(s), int(s)))
                tf = c['gflops'] / 1000 if c else None
                row += ' %s | %s%s |' % ('%.0f' % tf if tf else '–', pct(c and c['gflops'], ref),
                                         ' (%s)' % mode if ref else '')
            lines.append(row)
        blocks['tensor'] = lines
    lrun, erun = operands_runs(runs, want)
    if lrun or erun:
        data = ', '.join('[%s](%s/%s) (%s%s)' % (
            r.path, rel, r.path, r.date, ', commit %s' % r.meta['git_commit'][:7]
            if r.meta.get('git_commit') else '') for r in (lrun, erun) if r)
        devices = ('%s (layouts), %s (epilogues)' % (lrun.device, erun.device)
                   if lrun and erun and lrun.device != erun.device else (lrun or erun).device)
        blocks['operands'] = [
            'Generated by `bench/render.py` (do not edit): %s, driver %s; data: %s; every call: '
            '[%s](%s#the-general-call-layouts-leading-dimensions-batches).' % (
                devices, (lrun or erun).driver, data, os.path.basename(docs), docs), ''
        ] + operands_block(lrun, erun)
    return blocks


def replace_blocks(text, blocks):
    for name, lines in blocks.items():
        pat = re.compile(r'(<!-- results:%s:begin -->\n).*?(<!-- results:%s:end -->)'
                         % (name, name), re.S)
        if not pat.search(text):
            sys.stderr.write('render.py: the README has no results:%s markers\n' % name)
        text = pat.sub(lambda m: m.group(1) + '\n'.join(lines) + '\n' + m.group(2), text)
    return text


# ---- the compact table, and plots ------------------------------------------------------

def summary(doc):
    """A few lines per clgemm result, for logs (run.py's progress, --table)."""
    lines = []
    for res in doc.get('results', []):
        lines.append('  %s, %dx%dx%d, %s' % (res['device'], res['M'], res['N'], res['K'],
                                             res.get('dtype', 'f32')))
        for r in res['rows']:
            lines.append('    %-28s %-12s %14s GFLOP/s %7s  %-7s %s' % (
                r['algorithm'], r['status'], gf(r.get('gflops')), ratio(r.get('vs_clblast')),
                r.get('precision') or '', r.get('backend') or ''))
    return '\n'.join(lines)


def plots(runs, folder):
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write('render.py: --plots needs matplotlib\n')
        return 1
    os.makedirs(folder, exist_ok=True)
    for run in newest(runs, 'sizes'):
        fig, ax = plt.subplots(figsize=(9, 5))
        sq = [r for r in ok(run.rows, dtype='f32') if r['M'] == r['N'] == r['K']]
        for algo in dict.fromkeys(r['algorithm'] for r in sq):
            pts = sorted((r['M'], r['gflops']) for r in sq if r['algorithm'] == algo)
            ax.plot(*zip(*pts), marker='o', label=algo,
                    **({'color': 'black', 'lw': 3} if algo == 'clblast' else {}))
        cub = sorted((k[1], v) for k, v in run.cublas.items()
                     if k[0] == 'fp32' and k[1] == k[2] == k[3])
        if cub:
            ax.plot(*zip(*cub), ls='--', color='gray', label='cuBLAS fp32')
        ax.set(xscale='log', xlabel='M = N = K', ylabel='GFLOP/s (fp32)',
               title='%s, %s' % (run.device, run.date))
        ax.set_xscale('log', base=2)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        name = re.sub(r'[^a-z0-9]+', '-', run.device.lower()).strip('-')
        fig.savefig(os.path.join(folder, name + '_sizes.png'), dpi=110)
        plt.close(fig)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--results', default=os.path.join(ROOT, 'bench', 'results'))
    ap.add_argument('--out', default=os.path.join(ROOT, 'docs', 'results.md'))
    ap.add_argument('--readme', default=os.path.join(ROOT, 'README.md'),
                    help="the README whose generated blocks to rewrite ('' for none)")
    ap.add_argument('--readme-device', default='',
                    help='device name substring for the README blocks (default: newest run)')
    ap.add_argument('--check', action='store_true', help='exit 1 if a file would change')
    ap.add_argument('--plots', metavar='DIR')
    ap.add_argument('--table', nargs='+', metavar='FILE')
    args = ap.parse_args()
    if args.table:
        for path in args.table:
            doc = load_json(path)
            print(path + ':\n' + (summary(doc) if isinstance(doc, dict) else '  not JSON'))
        return 0
    runs = load_runs(args.results)
    if not args.check:  # drawn first: results.md links the plot when it exists
        render_llama.plot(runs, os.path.dirname(os.path.abspath(args.out)))
    outputs = {args.out: results_md(runs, args.results, args.out)}
    if args.readme and os.path.exists(args.readme):
        with open(args.readme) as f:
            old = f.read()
        outputs[args.readme] = replace_blocks(
            old, readme_blocks(runs, args.results, args.readme, args.readme_device))
    stale = []
    for path, text in outputs.items():
        current = open(path).read() if os.path.exists(path) else None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with open(path, 'w') as f:
                f.write(text)
    for path in stale:
        sys.stderr.write('render.py: %s %s\n' % ('stale' if args.check else 'wrote',
                                                os.path.relpath(path)))
    if args.plots and plots(runs, args.plots):
        return 1
    return 1 if args.check and stale else 0


if __name__ == '__main__':
    sys.exit(main())
