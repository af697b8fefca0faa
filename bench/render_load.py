"""Reading bench/results/ for bench/render.py: the run folders bench/run.py wrote (meta.json,
clgemm --format json files, cublas.json) and the older runs the first README quoted (LEGACY),
as Run objects of flat rows; newest() picks a preset's latest run per device."""
import glob
import json
import os
import re


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


# A median this far above its run's minimum means the runs were disturbed (another process,
# a clock change): on 2026-11-27 one cuBLAS bmm's median was 29.6x its minimum, which would have
# printed ours at 2565% of cuBLAS.  Such a figure is left out (its cells show "–"), not
# compared; 14 of 4 762 cuBLAS figures in bench/results, and none of clgemm's, were so far off.
UNSTEADY = 1.5


def steady(r):
    """Whether a timed row (ms_median, ms_min) is fit to compare: see UNSTEADY."""
    lo, med = r.get('ms_min'), r.get('ms_median')
    return not (lo and med and med > UNSTEADY * lo)


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
                        'layout': res.get('layout', 'row'), 'batch': res.get('batch') or 1,
                        'ld_pad': res.get('ld_pad'),
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
                for r in doc.get('rows', []) if steady(r)}, doc
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



def ok(rows, **match):
    return [r for r in rows if r['status'] == 'ok' and r.get('gflops')
            and all(r.get(k) == v for k, v in match.items())]
