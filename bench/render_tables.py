"""The tables of docs/results.md and the README, one function per preset, each taking a Run
(render_load.py) and returning Markdown lines; and the cell formatting they share."""
import re

from render_load import ok, steady

STEPS = ['naive', 'coalescing', 'tiled', 'tiled_register', 'block_tiled',
         'block_tiled_vectorized', 'warp_tiled']
SIZE_ORDER = ['256', '512', '1024', '2048', '4096', '8192', '1000', '3000', '4095',
              '1000x3000x777']


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


# ---- the general call: layouts, tight leading dimensions, batches ------------------------

# The layouts preset's columns: (data type, algorithm, cuBLAS mode), as bench/run.py runs them.
OPERAND_COLS = [('f32', 'auto', 'fp32', 'fp32 `auto`'), ('f32', 'tensor_core', 'tf32',
                                                         'TF32 `tensor_core`'),
                ('f16', 'tensor_core', 'f16', 'f16 `tensor_core`'),
                ('bf16', 'tensor_core', 'bf16', 'bf16 `tensor_core`')]


def operand_row(run, dtype, algo, size, layout='row', trans='NN', batch=1, ld_pad=None):
    for r in ok(run.rows, algorithm=algo, dtype=dtype, layout=layout, trans=trans, batch=batch,
                ld_pad=ld_pad):
        if size_key(r['M'], r['N'], r['K']) == size:
            return r
    return None


def cublas_call(run, mode, size, trans='NN', batch=1):
    """cuBLAS GFLOP/s of the same call (transposes, batch) in the run's cublas.json."""
    M, N, K = (int(x) for x in (size.split('x') if 'x' in size else [size] * 3))
    for r in (run.cublas_doc or {}).get('rows', []):
        if (r['mode'], r['M'], r['N'], r['K'], r.get('trans') or 'NN', r.get('batch') or 1) == \
                (mode, M, N, K, trans, batch):
            return r.get('gflops') if steady(r) else None
    return None


def layouts_table(run):
    """Every call of the layouts preset: a row per layout, transposes, padding or batch; per
    data type GFLOP/s, the ratio to cuBLAS on the same call and (fp32) to CLBlast."""
    calls = []
    for r in ok(run.rows):
        c = (size_key(r['M'], r['N'], r['K']), r['layout'], r['trans'], r['batch'], r['ld_pad'])
        if r['algorithm'] != 'clblast' and c not in calls:
            calls.append(c)
    # squares first, then the odd sizes, then the batches; row before col, NN .. TT, padded
    # before tight
    calls.sort(key=lambda c: (c[3], -int(c[0].split('x')[0]) if 'x' not in c[0] else 0,
                              c[0], c[1] != 'row', c[2], c[4] is not None))
    lines = ['| call |' + ''.join(' %s GFLOP/s | of cuBLAS |' % c[3] for c in OPERAND_COLS) +
             ' fp32 `auto` vs CLBlast |', '|---|' + '---:|---:|' * len(OPERAND_COLS) + '---:|']
    for size, layout, trans, batch, ld_pad in calls:
        what = '%s%s, %s %s' % ('%d × ' % batch if batch > 1 else '', size_text(
            *[int(x) for x in (size.split('x') if 'x' in size else [size] * 3)]), layout, trans)
        if ld_pad is not None:
            what += ', ld-pad %d' % ld_pad
        row, auto = '| %s |' % what, None
        for dtype, algo, mode, _ in OPERAND_COLS:
            c = operand_row(run, dtype, algo, size, layout, trans, batch, ld_pad)
            ref = cublas_call(run, mode, size, trans, batch)  # PyTorch's are tight
            row += ' %s | %s |' % (gf(c and c['gflops']), pct(c and c['gflops'], ref))
            auto = auto or (c if algo == 'auto' else None)
        lines.append(row + ' %s |' % ratio(auto and auto['vs_clblast']))
    return lines


def spread(cells):
    """The slowest of a set of calls as a share of the fastest."""
    g = [c['gflops'] for c in cells if c]
    return pct(min(g), max(g)) if len(g) > 1 else '–'


def operands_block(lrun, erun):
    """The README's table of the general call: per data type, how evenly the layouts and
    transposes run, a tight leading dimension, two batches against cuBLAS (and CLBlast), and
    what a fused epilogue or a 16-bit C costs.  lrun: a layouts run, erun: an epilogues run."""
    lines = ['| %s |' % ('4096³ unless named' if lrun else 'at 4096³') +
             ''.join(' %s |' % c[3] for c in OPERAND_COLS), '|---|' + '---:|' * len(OPERAND_COLS)]
    def add(label, cell):
        lines.append('| %s |' % label + ''.join(' %s |' % cell(*c[:3]) for c in OPERAND_COLS))
    if lrun:
        every = [(l, t) for l in ('row', 'col') for t in ('NN', 'NT', 'TN', 'TT')]
        # 8192³ where the run has it (layouts runs before 2026-11-25 stop at 4096³)
        squares = [s for s in ('4096', '8192') if any(
            operand_row(lrun, 'f32', 'auto', s, l, t) for l, t in every)]
        for size in squares:
            at = '' if size == '4096' else ', %s³' % size
            add('row/col × NN, NT, TN, TT%s: slowest of fastest' % at,
                lambda d, a, m, size=size: spread(
                    [operand_row(lrun, d, a, size, l, t) for l, t in every]))
            def of_cublas(d, a, m, size=size):
                got = [pct(c['gflops'], cublas_call(lrun, m, size, t)) for (l, t), c in
                       ((lt, operand_row(lrun, d, a, size, *lt)) for lt in every) if c]
                got = sorted((g for g in got if g != '–'), key=lambda x: int(x[:-1]))
                if not got:
                    return '–'
                return got[0] if got[0] == got[-1] else '%s–%s' % (got[0], got[-1])
            add('the same%s, of cuBLAS (same transposes)' % at, of_cublas)
        add('`--ld-pad 0`, 4095³: of the padded run', lambda d, a, m: pct(
            *[(c and c['gflops']) for c in (operand_row(lrun, d, a, '4095', ld_pad=0),
                                            operand_row(lrun, d, a, '4095'))]))
        for b, s in ((64, '512x512x64'), (512, '128x128x64')):
            def batch_cell(d, a, m, b=b, s=s):
                c = operand_row(lrun, d, a, s, batch=b)
                text = pct(c and c['gflops'], cublas_call(lrun, m, s, 'NN', b))
                return text + (' · %s CLBlast' % ratio(c['vs_clblast'])
                               if c and d == 'f32' and a == 'auto' else '')
            add('%d × %s: of cuBLAS `bmm`' % (b, size_text(*map(int, s.split('x')))), batch_cell)
    if erun:
        for c_type, epi, label in (('f32', 'bias_gelu', '`--epilogue bias_gelu`'),
                                   ('bf16', 'none', '`--out bf16`')):
            def cost(d, a, m, c_type=c_type, epi=epi):
                plain, c = find(erun.rows, a, '4096', d), find(erun.rows, a, '4096', d, c_type,
                                                                 epi)
                return '%+.1f%%' % ((plain['gflops'] / c['gflops'] - 1) * 100) \
                    if plain and c else '–'
            add('%s: time against plain' % label, cost)
    return lines
