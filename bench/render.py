#!/usr/bin/env python3
"""Renders bench/results/ into docs/results.md and the README's generated blocks.

usage: bench/render.py [--results bench/results] [--out docs/results.md] [--readme README.md]
                       [--readme-device SUBSTRING] [--check] [--plots DIR]
       bench/render.py --table FILE.json...     (a compact table of clgemm JSON, for logs)

Reads every run folder that bench/run.py wrote (meta.json, the clgemm --format json files,
cublas.json) and the runs written before it existed that the old README quoted (LEGACY
below: clgemm JSON, sweep JSON and cublas.txt).  For each preset and device the newest run
fills the main tables: progression, tensor cores (ours, CLBlast, cuBLAS and the ratio to it),
sizes, the quick-start job; then one line per older folder.  The README's progression table
and tensor-core headline are rewritten between their markers from the same runs:
    <!-- results:progression:begin --> ... <!-- results:progression:end -->
    <!-- results:tensor:begin --> ... <!-- results:tensor:end -->
--check rewrites nothing and exits 1 when a file is not what it would write.
--plots DIR also draws GFLOP/s against size and the progression as PNGs (needs matplotlib).
The llama preset's section and its plot (docs/llama_<device>.png, redrawn unless --check; without
matplotlib the plot is skipped with a message) come from bench/render_llama.py.
"""
import argparse
import glob
import json
import os
import re
import sys

import render_llama

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEPS = ['naive', 'coalescing', 'tiled', 'tiled_register', 'block_tiled',
         'block_tiled_vectorized', 'warp_tiled']
SIZE_ORDER = ['256', '512', '1024', '2048', '4096', '8192', '1000', '3000', '4095',
              '1000x3000x777']

# Runs written before bench/run.py, and the presets they measured (what the old README
# quoted from them).  Paths are relative to the results folder.
LEGACY = {
    '2026-11-21_nvidia-h100/sweep.json': ('progression', 'sizes'),
    '2026-11-21_nvidia-h100/pocl_1024.json': ('progression',),
    '2026-11-21_nvidia-h200/tune_sweep_sweep.json': ('progression', 'sizes'),
    '2026-11-22_nvidia-h100/edges/sweep.json': ('sizes',),
    '2026-11-23_nvidia-h100/final': ('tensor',),
    '2026-11-23_nvidia-h200/final': ('tensor',),
}
CUBLAS_TXT = re.compile(r'cuBLAS (\w+) \(torch ([^,]+), (.+?)\) (\d+)x(\d+)x(\d+): '
                        r'[\d.]+ ms, (\d+) GFLOP/s')


# ---- reading ---------------------------------------------------------------------------

def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def clgemm_rows(doc, source):
    """The rows of a clgemm --format json document, one dict per row with its result's
    device, driver, shape and data type."""
    out = []
    for res in doc.get('results', []):
        if 'rows' not in res:  # another tool's results (tf32_error.json): not clgemm's
            continue
        for r in res.get('rows', []):
            out.append({'device': res['device'], 'platform': res.get('platform', ''),
                        'driver': res.get('driver', ''), 'M': res['M'], 'N': res['N'],
                        'K': res['K'], 'dtype': res.get('dtype') or 'f32',
                        'c_type': res.get('c_type') or 'f32',
                        'epilogue': res.get('epilogue') or 'none',
                        'algorithm': r['algorithm'], 'status': r['status'],
                        'gflops': r.get('gflops'), 'vs_clblast': r.get('vs_clblast'),
                        'error': r.get('error'),
                        'precision': r.get('precision') or res.get('precision'),
                        'backend': r.get('backend'), 'params': r.get('params', ''),
                        'note': r.get('note') or '', 'file': source,
                        'trans': res.get('trans', 'NN'), 'l2': res.get('l2', 'warm'),
                        'gbps': r.get('gbps'), 'runs': r.get('runs')})
    return out


def sweep_rows(doc, source):
    """bench/sweep.py's old format: flat rows, cuBLAS rows among them."""
    rows, cublas = [], {}
    for r in doc.get('rows', []):
        if 'algorithm' not in r:  # another tool's rows (cublas.json): not this format
            continue
        if r['algorithm'].startswith('cublas'):
            if r.get('gflops'):
                cublas[('fp32', r['M'], r['N'], r['K'])] = r['gflops']
                cublas['torch'] = r.get('driver', '').replace('torch ', '')
            continue
        rows.append({**r, 'dtype': 'f32', 'precision': 'fp32', 'backend': None,
                     'file': source})
    return rows, cublas


def cublas_from(folder):
    """cuBLAS GFLOP/s keyed by (mode, M, N, K): cublas.json, else the older cublas*.txt."""
    doc = load_json(os.path.join(folder, 'cublas.json'))
    if doc is not None:
        return {(r['mode'], r['M'], r['N'], r['K']): r['gflops']
                for r in doc.get('rows', [])}, doc
    out, torch = {}, None
    for path in sorted(glob.glob(os.path.join(folder, 'cublas*.txt'))):
        with open(path, errors='replace') as f:
            for m in CUBLAS_TXT.finditer(f.read()):
                torch = m.group(2)
                out[(m.group(1).lower(), int(m.group(4)), int(m.group(5)),
                     int(m.group(6)))] = float(m.group(7))
    return out, ({'measured': True, 'torch': torch} if out else None)


class Run:
    """One measurement: rows of one device, the cuBLAS beside them, where and when."""

    def __init__(self, path, presets, rows, cublas, date, meta=None, cublas_doc=None):
        self.path, self.presets, self.rows, self.cublas = path, presets, rows, cublas
        self.date, self.meta, self.cublas_doc = date, meta or {}, cublas_doc
        self.sizes = self.meta.get('sizes') or None  # the preset's sizes, as run
        first = rows[0] if rows else {}
        self.device = self.meta.get('device') or first.get('device', '?')
        self.driver = self.meta.get('driver') or first.get('driver', '?')

    def order(self):
        return (self.date, self.meta.get('started', ''), self.path)


def folder_date(rel):
    m = re.match(r'(\d{4}-\d{2}-\d{2})', rel)
    return m.group(1) if m else '?'


def load_runs(root):
    runs = []
    for meta_path in sorted(glob.glob(os.path.join(root, '**', 'meta.json'), recursive=True)):
        folder = os.path.dirname(meta_path)
        meta = load_json(meta_path) or {}
        rows = []
        for path in sorted(glob.glob(os.path.join(folder, '*.json'))):
            doc = load_json(path)
            if isinstance(doc, dict) and 'results' in doc:
                rows += clgemm_rows(doc, os.path.relpath(path, root))
        cublas, cdoc = cublas_from(folder)
        runs.append(Run(os.path.relpath(folder, root), {meta.get('preset')}, rows, cublas,
                        meta.get('date') or folder_date(os.path.relpath(folder, root)),
                        meta, cdoc))
    for rel, presets in LEGACY.items():
        path = os.path.join(root, rel)
        rows, cublas, cdoc = [], {}, None
        if os.path.isdir(path):
            for f in sorted(glob.glob(os.path.join(path, '*.json'))):
                doc = load_json(f)
                if isinstance(doc, dict) and 'results' in doc:
                    rows += clgemm_rows(doc, os.path.relpath(f, root))
            cublas, cdoc = cublas_from(path)
        else:
            doc = load_json(path)
            if not isinstance(doc, dict):
                continue
            if 'results' in doc:
                rows = clgemm_rows(doc, rel)
            else:
                rows, cublas = sweep_rows(doc, rel)
                torch = cublas.pop('torch', None)
                cdoc = {'measured': True, 'torch': torch} if cublas else None
        if rows:
            runs.append(Run(rel, set(presets), rows, cublas, folder_date(rel),
                            cublas_doc=cdoc))
    return runs


def newest(runs, preset):
    """The newest run of a preset for each device, in device-name order."""
    best = {}
    for r in runs:
        if preset in r.presets and ok(r.rows) and (r.device not in best or
                                                   r.order() > best[r.device].order()):
            best[r.device] = r
    return [best[d] for d in sorted(best)]


# ---- formatting ------------------------------------------------------------------------

def size_text(M, N, K):
    return '%d³' % M if M == N == K else '%d×%d×%d' % (M, N, K)


def size_key(M, N, K):
    return '%d' % M if M == N == K else '%dx%dx%d' % (M, N, K)


def gf(x):
    return '{:,.0f}'.format(x).replace(',', ' ') if x else '–'


def ratio(x, digits=2):
    return ('%.' + str(digits) + 'fx') % x if x else '–'


def pct(a, b):
    return '%.0f%%' % (100.0 * a / b) if a and b else '–'


def link(run, root_rel):
    return '[%s](%s/%s)' % (run.path, root_rel, run.path)


def caption(run, root_rel):
    bits = ['**%s**' % run.device, 'driver %s' % run.driver, run.date]
    if run.meta.get('clblast_version'):
        bits.append('CLBlast %s' % run.meta['clblast_version'])
    if run.cublas_doc and run.cublas_doc.get('measured'):
        bits.append('cuBLAS through PyTorch %s' % run.cublas_doc.get('torch'))
    elif run.cublas_doc is not None:
        bits.append('cuBLAS not measured (%s)' % run.cublas_doc.get('reason', '?').split(':')[0])
    if run.meta.get('git_commit'):
        bits.append('commit %s' % run.meta['git_commit'][:7])
    return ' · '.join(bits) + ' · data: ' + link(run, root_rel)


def ok(rows, **match):
    return [r for r in rows if r['status'] == 'ok' and r.get('gflops')
            and all(r.get(k) == v for k, v in match.items())]


def find(rows, algorithm, size, dtype='f32', c_type='f32', epilogue='none'):
    # Rows from before --out and --epilogue (and the sweeps') have neither: plain.
    for r in ok(rows, algorithm=algorithm, dtype=dtype):
        if size_key(r['M'], r['N'], r['K']) == size and \
                (r.get('c_type') or 'f32', r.get('epilogue') or 'none') == (c_type, epilogue):
            return r
    return None


def auto_label(r):
    m = re.search(r'chose (\w+)', r.get('note') or '') if r else None
    return 'auto → %s' % m.group(1) if m else 'auto'


def cublas_mode(dtype, precision):
    if dtype in ('f16', 'bf16'):
        return dtype
    return {'tf32': 'tf32', 'tf32x3': 'fp32', 'fp32': 'fp32'}.get(precision)


# ---- tables ----------------------------------------------------------------------------

def progression_table(run):
    sizes = sorted(run.sizes or ['4096', '1024'], key=lambda s: -int(s.split('x')[0]))
    sizes = [s for s in sizes if any(find(run.rows, a, s) for a in STEPS + ['clblast'])]
    head = '| step | algorithm |' + ''.join(' %s³ GFLOP/s | vs CLBlast |' % s for s in sizes)
    lines = [head, '|---|---|' + '---:|---:|' * len(sizes)]
    for i, name in enumerate(STEPS + ['auto', 'clblast']):
        cells = [find(run.rows, name, s) for s in sizes]
        if not any(cells):
            continue
        label = auto_label(next(c for c in cells if c)) if name == 'auto' else name
        step = str(i + 1) if i < len(STEPS) else '–'
        lines.append('| %s | %s |' % (step, label) + ''.join(
            ' %s | %s |' % (gf(c and c['gflops']), ratio(c and c['vs_clblast']))
            for c in cells))
    cub = [run.cublas.get(('fp32', int(s), int(s), int(s))) for s in sizes]
    if any(cub):
        lines.append('| – | cuBLAS fp32 (PyTorch) |' + ''.join(' %s | |' % gf(c) for c in cub))
    return lines


def tensor_sizes(run):
    have = {size_key(r['M'], r['N'], r['K']) for r in ok(run.rows)}
    return [s for s in run.sizes or ['4096', '8192'] if s in have and 'x' not in s]


def tensor_table(run):
    sizes = tensor_sizes(run)
    keys = []
    for r in ok(run.rows):
        if r['dtype'] != 'f32' and r['algorithm'] == 'clblast':
            continue
        if size_key(r['M'], r['N'], r['K']) in sizes and (r['algorithm'], r['dtype']) not in keys:
            keys.append((r['algorithm'], r['dtype']))
    order = {'f32': 0, 'f16': 1, 'bf16': 2}
    keys.sort(key=lambda k: (k[0] == 'clblast', k[0] == 'warp_tiled', order.get(k[1], 3)))
    lines = ['| algorithm | data → arithmetic | backend |' +
             ''.join(' %s³ GFLOP/s | vs CLBlast | of cuBLAS |' % s for s in sizes) +
             ' error (%s³) |' % sizes[0],
             '|---|---|---|' + '---:|---:|---:|' * len(sizes) + '---:|']
    for algo, dtype in keys:
        cells = [find(run.rows, algo, s, dtype) for s in sizes]
        first = next(c for c in cells if c)
        mode = cublas_mode(dtype, first.get('precision'))
        row = '| `%s` | %s → %s | %s |' % (algo, dtype, first.get('precision') or '?',
                                          first.get('backend') or '')
        for s, c in zip(sizes, cells):
            ref = run.cublas.get((mode, int(s), int(s), int(s))) if mode else None
            row += ' %s | %s | %s |' % (gf(c and c['gflops']), ratio(c and c['vs_clblast']),
                                        pct(c and c['gflops'], ref))
        err = cells[0] and cells[0].get('error')
        lines.append(row + ' %s |' % ('%.1e' % err if err is not None else '–'))
    modes = [m for m in ('fp32', 'tf32', 'f16', 'bf16')
             if any(run.cublas.get((m, int(s), int(s), int(s))) for s in sizes)]
    if modes:
        lines += ['', '| cuBLAS (PyTorch, same command) |' + ''.join(' %s³ |' % s for s in sizes),
                  '|---|' + '---:|' * len(sizes)]
        for m in modes:
            lines.append('| %s |' % m + ''.join(
                ' %s |' % gf(run.cublas.get((m, int(s), int(s), int(s)))) for s in sizes))
    return lines


# The epilogues preset's columns: C's type, the epilogue, the heading.
EPILOGUE_COLS = [('f32', 'none', 'plain'), ('f32', 'bias_gelu', 'bias_gelu'),
                 ('bf16', 'none', 'C bf16'), ('f16', 'none', 'C f16'),
                 ('bf16', 'bias_gelu', 'C bf16 + bias_gelu')]


def epilogues_table(run):
    """Per size, a row per data type and algorithm: GFLOP/s plain, then each fused form
    with its time relative to the plain GEMM's (+: slower)."""
    lines = []
    for s in tensor_sizes(run):
        at = [r for r in ok(run.rows) if size_key(r['M'], r['N'], r['K']) == s and
              r['algorithm'] != 'clblast']
        cols = [c for c in EPILOGUE_COLS
                if any(r['c_type'] == c[0] and r['epilogue'] == c[1] for r in at)]
        keys = []
        for r in at:
            if (r['dtype'], r['algorithm']) not in keys:
                keys.append((r['dtype'], r['algorithm']))
        keys.sort(key=lambda k: {'f32': 0, 'f16': 1, 'bf16': 2}.get(k[0], 3))
        if lines:
            lines.append('')
        lines += ['| %s³: data, algorithm | arithmetic |' % s +
                  ''.join(' %s GFLOP/s | time |' % c[2] for c in cols) + ' cuBLAS |',
                  '|---|---|' + '---:|---:|' * len(cols) + '---:|']
        for dtype, algo in keys:
            cells = [find(run.rows, algo, s, dtype, c[0], c[1]) for c in cols]
            plain = cells[0] if cols and cols[0][2] == 'plain' else None
            first = next(c for c in cells if c)
            label = auto_label(first) if algo == 'auto' else '`%s`' % algo
            row = '| %s %s | %s |' % (dtype, label, first.get('precision') or '?')
            for c in cells:
                rel = '–'
                if c and plain and c is not plain:
                    rel = '%+.1f%%' % ((plain['gflops'] / c['gflops'] - 1.0) * 100.0)
                row += ' %s | %s |' % (gf(c and c['gflops']), rel)
            mode = cublas_mode(dtype, first.get('precision'))
            cub = run.cublas.get((mode, int(s), int(s), int(s))) if mode else None
            lines.append(row + ' %s |' % gf(cub))
    return lines


def sizes_table(run):
    lines = ['| size | best clgemm (fp32) | GFLOP/s | CLBlast | vs CLBlast | cuBLAS fp32 |'
             ' of cuBLAS |', '|---|---|---:|---:|---:|---:|---:|']
    shapes = {size_key(r['M'], r['N'], r['K']): (r['M'], r['N'], r['K']) for r in run.rows}
    for s in sorted(shapes, key=lambda s: (SIZE_ORDER.index(s) if s in SIZE_ORDER else 99, s)):
        at = [r for r in ok(run.rows, dtype='f32')
              if size_key(r['M'], r['N'], r['K']) == s and (r.get('precision') or 'fp32') == 'fp32']
        ours = [r for r in at if r['algorithm'] != 'clblast']
        if not ours:
            continue
        best = max(ours, key=lambda r: r['gflops'])
        base = next((r for r in at if r['algorithm'] == 'clblast'), None)
        cub = run.cublas.get(('fp32',) + shapes[s])
        name = auto_label(best) if best['algorithm'] == 'auto' else best['algorithm']
        lines.append('| %s | %s | %s | %s | %s | %s | %s |' % (
            size_text(*shapes[s]), name, gf(best['gflops']), gf(base and base['gflops']),
            ratio(best['vs_clblast']), gf(cub), pct(best['gflops'], cub)))
    return lines


def quick_table(run):
    lines = ['| algorithm | status | GFLOP/s | vs CLBlast | arithmetic | backend | error |',
             '|---|---|---:|---:|---|---|---:|']
    for r in run.rows:
        lines.append('| %s | %s | %s | %s | %s | %s | %s |' % (
            r['algorithm'], r['status'], gf(r.get('gflops')), ratio(r.get('vs_clblast')),
            r.get('precision') or '', r.get('backend') or '',
            '%.1e' % r['error'] if r.get('error') is not None else '–'))
    return lines


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
